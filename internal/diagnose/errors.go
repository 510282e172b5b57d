package diagnose

import (
	"sort"

	"github.com/loadlens/loadlens/internal/sample"
)

// Error thresholds: at least 1 % of a second's requests and at least 3 of
// them failed, two seconds in a row. The minimum count keeps a single
// failure at a low rate from counting as 1 %; two seconds keep the burst of
// cancelled requests when a run stops from counting at all.
const (
	errShare    = 0.01
	errMin      = 3
	errSeconds  = 2
	errStart    = 2    // crossing within this many seconds of the start: not load-related
	errSameLoad = 0.95 // served this share of the crossing's throughput without errors before: not load-related
)

// errorsAtLoad finds the second, and the load, from which requests failed,
// with the kinds of failure.
func errorsAtLoad(c *context) []Finding {
	failing := func(i int) bool {
		s := &c.secs[i]
		return s.failed >= errMin && s.failed >= errShare*s.x
	}
	run, ok := firstRun(len(c.secs), errSeconds, failing)
	if !ok {
		return nil
	}
	last := run.last
	for i := run.last; i < len(c.secs); i++ {
		if failing(i) {
			last = i
		}
	}
	first := &c.secs[run.first]
	var requests, failed float64
	var byKind [sample.NumKinds]float64
	firstOf := [sample.NumKinds]int{}
	for i := run.first; i <= last; i++ {
		s := &c.secs[i]
		requests += s.x
		failed += s.failed
		for k := sample.OK + 1; k < sample.NumKinds; k++ {
			if n := float64(s.m.Failures[k]); n > 0 {
				if byKind[k] == 0 {
					firstOf[k] = s.sec
				}
				byKind[k] += n
			}
		}
	}
	kinds := make([]sample.Kind, 0, sample.NumKinds)
	for k := sample.OK + 1; k < sample.NumKinds; k++ {
		if byKind[k] > 0 {
			kinds = append(kinds, k)
		}
	}
	sort.SliceStable(kinds, func(i, j int) bool { return byKind[kinds[i]] > byKind[kinds[j]] })

	load := rate(first.x) + " with " + count(first.n) + " VUs"
	if c.open {
		load = rate(first.load) + " offered, " + count(first.n) + " in flight"
	}
	best := 0.0 // the highest throughput served without errors before
	for i := range run.first {
		if !failing(i) {
			best = max(best, c.secs[i].x)
		}
	}
	share := failed / requests
	var title string
	switch {
	case run.first < errStart:
		title = "Errors from the start (" + at(first.sec) + ", " + load + "): " + pct(share) + " of requests failed"
	case best >= errSameLoad*first.x:
		// The same load was served without errors before: time, not load, brought them.
		title = "Errors from " + at(first.sec) + " at a load served without them before (" + load + "): " + pct(share) + " of requests failed"
	default:
		title = "Errors start at " + load + " (" + at(first.sec) + "): " + pct(share) + " of requests failed"
	}
	for i, k := range kinds {
		if i == 2 {
			break
		}
		title += ", " + k.String() + " " + pct(byKind[k]/failed)
	}
	f := Finding{Kind: KindErrorsAtLoad, Severity: Critical, From: first.sec, To: c.secs[last].sec, Title: title,
		Evidence: []Evidence{{Source: "http_req_failed", Sec: first.sec, Value: first.failed / first.x,
			Text: "first second over " + pct(errShare) + ": " + count(first.failed) + " of " + count(first.x) + " requests failed at " + load}},
		Remedies: remediesFor(KindErrorsAtLoad),
	}
	if run.first >= errStart {
		f.Evidence = append(f.Evidence, Evidence{Source: "http_reqs", Sec: c.secs[run.first-1].sec, Value: best,
			Text: "before " + at(first.sec) + " errors stayed under " + pct(errShare) + " up to " + rate(best)})
	}
	for _, k := range kinds {
		f.Evidence = append(f.Evidence, Evidence{Source: `http_req_failed{kind:"` + k.String() + `"}`, Sec: firstOf[k], Value: byKind[k],
			Text: count(byKind[k]) + " " + k.String() + " failures (" + pct(byKind[k]/failed) + " of the failures) from " + at(firstOf[k])})
	}
	return []Finding{f}
}
