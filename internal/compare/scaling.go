package compare

import (
	"fmt"
	"math"

	"github.com/loadlens/loadlens/internal/units"
)

// Scaling is how throughput followed the load between the baseline and a
// group that ran at another load, read with Little's law: N = X·R, the
// users (or requests in flight) N equal the throughput X times the time R
// each spends per request.
type Scaling struct {
	Group           string     `json:"group"`            // the group compared with the baseline
	LoadUnit        string     `json:"load_unit"`        // "VUs", or the offered rate's: "req/s", "calls/s", "sessions/s"
	Load            [2]float64 `json:"load"`             // the baseline's and the group's
	Throughput      [2]float64 `json:"throughput"`       // completed per second: requests (calls, sessions), or iterations when an iteration sends several
	ThroughputUnit  string     `json:"throughput_unit"`  // "req/s", "calls/s", "sessions/s" or "iterations/s"
	Time            [2]float64 `json:"time_s"`           // R = N/X in seconds for VUs; the mean request duration for rates
	MeanDuration    [2]float64 `json:"mean_duration_ms"` // the mean request (call, session) duration
	LoadRatio       float64    `json:"load_ratio"`       // the group's load / the baseline's
	ThroughputRatio float64    `json:"throughput_ratio"` // the group's throughput / the baseline's
	Verdict         string     `json:"verdict"`          // "saturated", "partly", "scaled", "kept up" or "fell behind"
	Text            string     `json:"text"`             // the reading in words

	unit units.Unit // what the runs' samples count (metrics.Run.Unit); zero: requests
}

// scalings reads every group whose load differs from the baseline's with
// Little's law.
func scalings(rep *Report, views []*runView) []Scaling {
	var out []Scaling
	base := rep.Groups[0]
	for g := 1; g < len(rep.Groups); g++ {
		grp := rep.Groups[g]
		if grp.LoadUnit != base.LoadUnit || base.Load <= 0 || sameLoad(grp.Load, base.Load, 0.10) {
			continue
		}
		s := Scaling{Group: grp.Name, LoadUnit: base.LoadUnit, Load: [2]float64{base.Load, grp.Load}, unit: groupsUnit(views, base, grp)}
		perIter := false
		for k, gi := range []GroupInfo{base, grp} {
			var x, it, meanMs float64
			for _, i := range gi.Runs {
				v := views[i]
				secs := float64(v.info.Seconds)
				tps, _ := v.value(0, TPS)
				x += tps
				it += float64(v.iters) / secs
				meanMs += ms(v.hist(-1).Mean())
			}
			n := float64(len(gi.Runs))
			s.Throughput[k], s.MeanDuration[k] = x/n, meanMs/n
			if it > 0 && math.Abs(x/it-1) > 0.01 && s.LoadUnit == "VUs" {
				perIter = true
				s.Throughput[k] = it / n
			}
		}
		if s.Throughput[0] <= 0 || s.Throughput[1] <= 0 {
			continue
		}
		s.ThroughputUnit = s.unit.PerSecond()
		if perIter {
			s.ThroughputUnit = "iterations/s"
		}
		s.LoadRatio, s.ThroughputRatio = s.Load[1]/s.Load[0], s.Throughput[1]/s.Throughput[0]
		if s.LoadUnit == "VUs" {
			s.Time = [2]float64{s.Load[0] / s.Throughput[0], s.Load[1] / s.Throughput[1]}
			s.Verdict, s.Text = closedReading(s, base.Name, grp.Name)
		} else {
			s.Time = [2]float64{s.MeanDuration[0] / 1000, s.MeanDuration[1] / 1000}
			s.Verdict, s.Text = openReading(s, base.Name, grp.Name)
		}
		out = append(out, s)
	}
	return out
}

// groupsUnit is what the runs of both groups count: their samples' unit
// when they share one, else operations (units.ForProtocols' rule).
func groupsUnit(views []*runView, groups ...GroupInfo) units.Unit {
	var u units.Unit
	for k, g := range groups {
		for j, i := range g.Runs {
			ru := views[i].run.Unit()
			if k == 0 && j == 0 {
				u = ru
			} else if ru != u {
				return units.Operations
			}
		}
	}
	return u
}

// closedReading reads two VU levels: throughput that stays while VUs grow
// means each VU waits longer (R = N/X grows): the system is saturated.
func closedReading(s Scaling, a, b string) (verdict, text string) {
	lo, hi, nameLo, nameHi := 0, 1, a, b
	if s.Load[1] < s.Load[0] {
		lo, hi, nameLo, nameHi = 1, 0, b, a
	}
	k := s.Load[hi] / s.Load[lo]
	x := s.Throughput[hi] / s.Throughput[lo]
	eff := (x - 1) / (k - 1) // 1: throughput grew as the VUs did; 0: not at all
	unit, per := s.ThroughputUnit, s.unit.Or().One
	if unit == "iterations/s" {
		per = "iteration"
	}
	ran := fmt.Sprintf("%s ran %s VUs, %s %s's %s, and completed %s %s, %s %s's %s",
		nameHi, units.Number(s.Load[hi]), units.Multiple(k), nameLo, units.Number(s.Load[lo]),
		units.Number(s.Throughput[hi]), unit, units.Multiple(x), nameLo, units.Number(s.Throughput[lo]))
	little := fmt.Sprintf("Little's law N = X·R gives each VU's time per %s R = N/X: %s %s = %s/s × %s; %s %s = %s/s × %s (mean %s duration %s → %s)",
		per, a, units.Number(s.Load[0]), units.Number(s.Throughput[0]), units.DurationSeconds(s.Time[0]),
		b, units.Number(s.Load[1]), units.Number(s.Throughput[1]), units.DurationSeconds(s.Time[1]),
		s.unit.Or().One, units.DurationMillis(s.MeanDuration[0]), units.DurationMillis(s.MeanDuration[1]))
	switch {
	case eff <= 0.25:
		return "saturated", fmt.Sprintf("Throughput did not scale with the VUs: %s. %s. The added VUs only waited in a queue: the system was saturated at about %s %s, and more VUs will not raise throughput until its bottleneck is removed.",
			ran, little, units.Number(max(s.Throughput[0], s.Throughput[1])), unit)
	case eff >= 0.8:
		return "scaled", fmt.Sprintf("Throughput scaled with the VUs: %s. %s: the time per %s held, so the system was not saturated at %s VUs.",
			ran, little, per, units.Number(s.Load[hi]))
	}
	return "partly", fmt.Sprintf("Throughput rose less than the VUs (scaling efficiency %s): %s. %s: the time per %s grew, so the system is nearing saturation.",
		units.Share(eff), ran, little, per)
}

// openReading reads two offered rates: a group that completes less than it
// was offered fell behind; one that keeps up may still slow down.
func openReading(s Scaling, a, b string) (verdict, text string) {
	u := s.unit.Or()
	little := fmt.Sprintf("Little's law L = X·R gives the %s in flight: %s %s/s × %s = %s; %s %s/s × %s = %s",
		u.Many, a, units.Number(s.Throughput[0]), units.DurationSeconds(s.Time[0]), units.Number(s.Throughput[0]*s.Time[0]),
		b, units.Number(s.Throughput[1]), units.DurationSeconds(s.Time[1]), units.Number(s.Throughput[1]*s.Time[1]))
	for k, name := range []string{a, b} {
		if s.Throughput[k] < 0.9*s.Load[k] {
			return "fell behind", fmt.Sprintf("%s was offered %s but completed only %s (%s): it fell behind its load, so the system saturated below %s. %s.",
				name, u.Rate(s.Load[k]), units.Number(s.Throughput[k]), units.Share(s.Throughput[k]/s.Load[k]), u.Rate(s.Load[k]), little)
		}
	}
	text = fmt.Sprintf("Throughput kept up with the load: %s was offered %s %s's rate (%s vs %s) and completed %s the %s. %s.",
		b, units.Multiple(s.LoadRatio), a, units.Number(s.Load[1]), u.Rate(s.Load[0]), units.Multiple(s.ThroughputRatio), u.Many, little)
	return "kept up", text + durationWithLoad(s)
}

// durationWithLoad reads the mean request duration at the higher load
// against the one at the lower, in the loads' order, not the larger time
// over the smaller: a run at 4× the rate that answered 18× faster once read
// "grew 18.4× with the load". "" when it moved less than 1.5× either way.
func durationWithLoad(s Scaling) string {
	lo, hi := 0, 1
	if s.Load[1] < s.Load[0] {
		lo, hi = 1, 0
	}
	tLo, tHi := s.Time[lo], s.Time[hi]
	u := s.unit.Or()
	switch {
	case tLo <= 0 || tHi <= 0 || s.Load[0] == s.Load[1]: // no order to follow
		return ""
	case tHi/tLo > 1.5:
		return fmt.Sprintf(" The mean %s duration grew %s with the load (%s at %s, %s at %s): the system is nearing saturation.",
			u.One, units.Multiple(tHi/tLo), units.DurationSeconds(tLo), u.Rate(s.Load[lo]), units.DurationSeconds(tHi), units.Number(s.Load[hi]))
	case tLo/tHi > 1.5:
		return fmt.Sprintf(" The mean %s duration fell %s as the load rose (%s at %s, %s at %s): the higher load ran faster, so something else changed between the runs (a fix, a cache, a warm-up); the load did not slow the system.",
			u.One, units.Multiple(tLo/tHi), units.DurationSeconds(tLo), u.Rate(s.Load[lo]), units.DurationSeconds(tHi), units.Number(s.Load[hi]))
	}
	return ""
}
