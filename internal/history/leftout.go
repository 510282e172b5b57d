package history

import (
	"fmt"
	"strings"
	"time"

	"github.com/loadlens/loadlens/internal/units"
)

// Lag is the load generator's scheduling lag over a run, all scenarios
// merged, at the levels of the latency figures. Latencies are timed from
// an iteration's intended start, so the lag at a percentile's own level is
// what a late start can add to that percentile (compare reads it so too).
type Lag struct {
	P50 time.Duration `json:"p50_ns"`
	P95 time.Duration `json:"p95_ns"`
	P99 time.Duration `json:"p99_ns"`
}

// materialShare is the share of a latency figure a generator's lag must
// reach for the run to be left out of that figure: at a tenth, its wait
// could make a step of the size change points look for. Trial C's runs on
// a busy host had lag p99 of 43–84 ms beside a p50 of 22 ms; their lag at
// the p50 level was a fraction of a millisecond, and they measured it.
const materialShare = 0.1

// scheduleLag is the lag p50 past which a disturbed run's requests/s and
// errors are left out: half its iterations started a tenth of a second
// late, a schedule visibly not kept, whose bursts a rate-limited target
// may refuse.
const scheduleLag = 100 * time.Millisecond

// LeftOut says why a run's figure f of endpoint e counts for no change
// point, or "" when it counts: a run that did not complete, or one whose
// generator's delay could explain a material part of f (see materialShare
// and scheduleLag). A disturbed run without a recorded lag, from an earlier
// build or a closed model, is left out of every figure as before.
func (r *Run) LeftOut(f Figure, e Endpoint) string {
	switch {
	case r.Status != "completed":
		return "it did not complete (" + r.Status + ")"
	case r.Disturbed == "":
		return ""
	case r.Lag == nil:
		return "its own diagnosis found " + r.Disturbed + " and it recorded no scheduling lag to weigh it by"
	case r.Disturbed == KindGeneratorBound && !f.Latency():
		return "its own diagnosis found " + r.Disturbed + ": the generator, not the target, set its rate"
	}
	if !f.Latency() {
		if r.Lag.P50 >= scheduleLag {
			return fmt.Sprintf("its own diagnosis found %s, and its generator's lag p50 of %s is past %s: it did not keep its schedule",
				r.Disturbed, units.Duration(r.Lag.P50), units.Duration(scheduleLag))
		}
		return ""
	}
	lag, v := r.Lag.at(f), f.duration(e)
	if v <= 0 || float64(lag) < materialShare*float64(v) {
		return ""
	}
	return fmt.Sprintf("its own diagnosis found %s, and its generator's lag %s of %s is %s of its %s of %s: the wait could explain a material part of it",
		r.Disturbed, f, units.Duration(lag), units.Share(float64(lag)/float64(v)), f, units.Duration(v))
}

// KindGeneratorBound is the finding that says the generator itself, not
// its host, limited the run (diagnose.KindGeneratorBound).
const KindGeneratorBound = "generator-bound"

// at is the lag at the level of latency figure f.
func (l *Lag) at(f Figure) time.Duration {
	switch f {
	case P50:
		return l.P50
	case P95:
		return l.P95
	}
	return l.P99
}

// duration is a latency figure of e.
func (f Figure) duration(e Endpoint) time.Duration {
	switch f {
	case P50:
		return e.P50
	case P95:
		return e.P95
	}
	return e.P99
}

// LeftOutText says in one line which figures of a run count for no change
// point and why, or "" when every one counts: "every figure: it did not
// complete (interrupted)", or "GET /h p(95) (lag 11.3ms, 26% of 43.1ms),
// p(99) (…): generator-host-busy, its generator's lag a tenth or more of
// the figure".
func (r *Run) LeftOutText() string {
	if r.Status != "completed" || r.Disturbed != "" && r.Lag == nil {
		return "every figure: " + r.LeftOut(P50, Endpoint{})
	}
	if r.Disturbed == "" {
		return ""
	}
	var parts []string
	for _, e := range r.Endpoints {
		var fs []string
		for _, f := range Figures {
			if r.LeftOut(f, e) == "" {
				continue
			}
			if f.Latency() {
				fs = append(fs, fmt.Sprintf("%s (lag %s, %s of %s)", f, units.Duration(r.Lag.at(f)), units.Share(float64(r.Lag.at(f))/float64(f.duration(e))), units.Duration(f.duration(e))))
			} else {
				fs = append(fs, f.String())
			}
		}
		if len(fs) > 0 {
			parts = append(parts, e.Name+" "+strings.Join(fs, ", "))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return strings.Join(parts, "; ") + ": " + r.Disturbed + ", its generator's delay a tenth or more of the figure"
}
