package scrape

import (
	"bytes"
	"sync/atomic"
)

// Bounds on what targets may add to a run, whatever they expose: a real
// service stays far below them (a Spring Boot app with many endpoints
// keeps a few thousand series, node_exporter 1–2 thousand), while a target
// exposing a million series would otherwise hold gigabytes and keep the run
// writing run.db long after its end.
const (
	MaxSamples       = 250_000 // sample lines of one exposition parsed: ~100 MB while parsing, whatever the body
	MaxTargetSeries  = 20_000  // series one target adds over the run: the first in name order, after its preset's selection
	MaxRunSeries     = 50_000  // series all targets together add over the run
	MaxNameLen       = 512     // bytes of a metric's or label's name
	MaxLabels        = 64      // labels of one series
	MaxLabelValueLen = 4096    // bytes of one label value: a URL template or a pod's name is far shorter
)

// bounds are one run's bounds and what all its targets took of them.
// Tests lower the figures.
type bounds struct {
	samples   int
	perTarget int
	perRun    int
	taken     atomic.Int64 // series admitted so far, all targets together
}

// newBounds returns the bounds of a run: the Max figures.
func newBounds() *bounds {
	return &bounds{samples: MaxSamples, perTarget: MaxTargetSeries, perRun: MaxRunSeries}
}

// take admits one more series of the run, false when the run is full.
func (b *bounds) take() bool {
	if b.taken.Add(1) > int64(b.perRun) {
		b.taken.Add(-1)
		return false
	}
	return true
}

// Overflow is what a target's scrape left out because of the bounds: the
// first scrape that did, reported once per target.
type Overflow struct {
	Target        string
	Exposed, Read int // sample lines in the body, and those parsed (at most MaxSamples)
	TargetFull    int // selected series refused: the target had all its series (PerTarget)
	RunFull       int // selected series refused: the run had all its series (PerRun)
	Oversized     int // series refused for a name, a label count or a label value (MaxNameLen, MaxLabels, MaxLabelValueLen)
	PerTarget     int // the bounds in force: MaxTargetSeries...
	PerRun        int // ...and MaxRunSeries
}

// Any reports whether anything was left out.
func (o *Overflow) Any() bool {
	return o.Read < o.Exposed || o.TargetFull+o.RunFull+o.Oversized > 0
}

// cut returns body up to the end of its max-th sample line, with the
// number of sample lines in all of it: what is not parsed costs no memory.
func cut(body []byte, max int) ([]byte, int) {
	n, end := 0, len(body)
	for rest, at := body, 0; len(rest) > 0; {
		line, next := rest, len(rest)
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line, next = rest[:i], i+1
		}
		if t := bytes.TrimLeft(line, " \t"); len(t) > 0 && t[0] != '#' {
			n++
			if n == max+1 {
				end = at
			}
		}
		rest, at = rest[next:], at+next
	}
	return body[:end], n
}

// oversized reports whether a sample is beyond the bounds of one series.
func oversized(s *sample) bool {
	if len(s.name) > MaxNameLen || len(s.labels) > MaxLabels {
		return true
	}
	for _, l := range s.labels {
		if len(l.name) > MaxNameLen || len(l.value) > MaxLabelValueLen {
			return true
		}
	}
	return false
}
