package compare

import (
	"fmt"
	"math"

	"github.com/loadlens/loadlens/internal/stats"
	"github.com/loadlens/loadlens/internal/units"
)

// part is a candidate stretch of a run to compare.
type part struct {
	seg    Segment // Level is the load the comparison of loads uses
	source string  // "stages" or "data"
}

// chooseParts picks the compared seconds of every run: the baseline's
// longest hold (from its test's stages, else from its data), then in each
// other run its longest hold at the baseline's load, or its longest one
// when it has none. It returns the load series too.
func chooseParts(ins []Input, tol float64) ([]RunInfo, [][]float64) {
	out := make([]RunInfo, len(ins))
	levels := make([][]float64, len(ins))
	var base RunInfo
	for i, in := range ins {
		model, unit, level := loadOf(in.Run)
		levels[i] = level
		info := RunInfo{Name: in.Name, Tags: in.Tags, Model: model, LoadUnit: unit, RunSeconds: len(level), Exact: in.Snapshots != nil, Note: in.Note}
		cands := holdParts(in, level)
		if len(cands) == 0 {
			cands = dataParts(level, tol)
		}
		var p part
		found := false
		if i > 0 && unit == base.LoadUnit {
			p, found = longestPart(cands, func(p part) bool { return sameLoad(p.seg.Level, base.Load, tol) })
		}
		if !found {
			p, found = longestPart(cands, func(part) bool { return true })
		}
		if !found {
			last := max(0, len(level)-2) // the last second is partial
			p = part{seg: Segment{First: 0, Last: last, Level: stats.Mean(level[:last+1])}, source: "whole run"}
			info.Note = join(info.Note, "no steady part of "+units.CountOf(minSteady, "second", "seconds")+" or more in the data and no hold in the test's stages: the whole run is compared")
		}
		seg := p.seg
		info.First, info.Last = in.Run.Series[seg.First].Sec, in.Run.Series[seg.Last].Sec
		info.Seconds, info.Load, info.Source = seg.Len(), seg.Level, p.source
		info.Comparable = i == 0 || (unit == base.LoadUnit && sameLoad(seg.Level, base.Load, tol))
		if i == 0 {
			base = info
		} else if !info.Comparable {
			info.Note = join(info.Note, unfairNote(info, base))
		}
		out[i] = info
	}
	return out, levels
}

// holdParts maps a run's holds onto its recorded seconds, leaving out the
// last recorded second, which the run's end cuts short.
func holdParts(in Input, level []float64) []part {
	series := in.Run.Series
	lastFull := len(series) - 2
	var out []part
	for _, h := range in.Holds {
		first, last := -1, -1
		for i := 0; i <= lastFull; i++ {
			if series[i].Sec >= h.First && series[i].Sec <= h.Last {
				if first < 0 {
					first = i
				}
				last = i
			}
		}
		if first < 0 {
			continue // the run ended before the hold
		}
		seg := Segment{First: first, Last: last, Level: h.Load}
		if seg.Level <= 0 {
			seg.Level = stats.Mean(level[first : last+1])
		}
		out = append(out, part{seg: seg, source: "stages"})
	}
	return out
}

// dataParts finds the steady stretches of a load series: flat segments,
// their ramp seconds trimmed, their warm-up left out when they start with
// the run, and the run's last (partial) second never in any.
func dataParts(level []float64, tol float64) []part {
	n := len(level)
	if n >= 2 {
		n-- // the last second is partial
	}
	lv := level[:n]
	sm := runningMedian(lv, smoothWidth)
	var out []part
	for _, s := range Segments(lv, tol) {
		if s.Len() < minSteady {
			continue
		}
		s = trim(s, lv, sm, tol)
		if !steady(s, lv, tol) {
			continue
		}
		if s.First == 0 {
			s.First = min(WarmUp(s.Len()), s.Last)
			s.Level = stats.Mean(lv[s.First : s.Last+1])
		}
		if s.Len() >= minSteady {
			out = append(out, part{seg: s, source: "data"})
		}
	}
	return out
}

// longestPart returns the longest part that keep accepts (ties: the higher
// load), and false when none does.
func longestPart(ps []part, keep func(part) bool) (part, bool) {
	var best part
	found := false
	for _, p := range ps {
		if !keep(p) {
			continue
		}
		if !found || p.seg.Len() > best.seg.Len() || (p.seg.Len() == best.seg.Len() && p.seg.Level > best.seg.Level) {
			best, found = p, true
		}
	}
	return best, found
}

// unfairNote says why a run cannot be compared fairly with the baseline.
func unfairNote(r, base RunInfo) string {
	if r.LoadUnit != base.LoadUnit {
		return fmt.Sprintf("load models differ (%s vs the baseline's %s): the loads cannot be compared", r.Model, base.Model)
	}
	return fmt.Sprintf("load %s %s vs the baseline's %s %s (%s): not the same load, so a change may come from the load, not the system",
		units.Number(r.Load), r.LoadUnit, units.Number(base.Load), base.LoadUnit, units.Change((r.Load-base.Load)/base.Load))
}

// sameLoad reports whether load a is within tol (plus the slack) of b.
func sameLoad(a, b, tol float64) bool { return math.Abs(a-b) <= max(tol*b, loadSlack) }

// join joins two notes with "; ", skipping empty ones.
func join(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "; " + b
}
