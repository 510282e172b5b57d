package diagnose

import (
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/sample"
)

// served is how a simulated target answers a request sent at start (in
// seconds from the run's start): after dur seconds, as kind.
type served func(start float64) (dur float64, kind sample.Kind)

// simulateOpen runs an open-model schedule of rate arrivals a second for
// schedule seconds against a target, as the engine would record it over
// secs seconds (the schedule, then its graceful stop): each
// request in the second it ended, its duration from its intended start,
// the most requests in flight at once in each second as the busy VUs, and
// the arrivals of each second as its offered load (the engine's record).
// Requests still in flight at the end are left out, as a graceful stop
// long enough would have seen them end after the run.
func simulateOpen(rate float64, schedule, secs int, target served) []sec {
	type done struct {
		dur  float64
		kind sample.Kind
	}
	ends := make([][]done, secs)
	type event struct {
		at    float64
		delta int
	}
	var events []event
	out := make([]sec, secs)
	for i := 0; ; i++ {
		start := float64(i) / rate
		if start >= float64(schedule) {
			break
		}
		out[int(start)].offered++
		dur, kind := target(start)
		events = append(events, event{start, 1}, event{start + dur, -1})
		if end := int(start + dur); end < secs {
			ends[end] = append(ends[end], done{dur, kind})
		}
	}
	sort.Slice(events, func(i, j int) bool {
		if events[i].at != events[j].at {
			return events[i].at < events[j].at
		}
		return events[i].delta < events[j].delta
	})
	busy, e := 0, 0
	for s := range out {
		peak := busy
		for ; e < len(events) && events[e].at < float64(s+1); e++ {
			busy += events[e].delta
			peak = max(peak, busy)
		}
		out[s].vus, out[s].vusMax = int64(peak), 1000
		// Failures first, as reqs has them; then the rest, each group in duration order.
		ds := ends[s]
		sort.SliceStable(ds, func(i, j int) bool { return ds[i].kind != sample.OK && ds[j].kind == sample.OK })
		byKind := map[sample.Kind][]float64{}
		var kinds []sample.Kind
		for _, d := range ds {
			if _, ok := byKind[d.kind]; !ok {
				kinds = append(kinds, d.kind)
			}
			byKind[d.kind] = append(byKind[d.kind], d.dur)
		}
		for _, k := range kinds {
			durs := byKind[k]
			r := reqs{n: len(durs), dur: func(i, n int) time.Duration { return time.Duration(durs[i] * float64(time.Second)) }}
			if k != sample.OK {
				r.fail, r.kind = len(durs), k
			}
			out[s].reqs = append(out[s].reqs, r)
		}
	}
	return out
}

// jittery is a service whose latency drifts up as base says, each request
// 0.3–1.7 × that, by a fixed pseudo-random sequence from seed: a service
// of uneven latency, as a Spring service with a slow query is.
func jittery(seed uint64, base func(at float64) float64) served {
	x := seed
	return func(at float64) (float64, sample.Kind) {
		x = x*6364136223846793005 + 1442695040888963407 // Knuth's MMIX LCG
		u := float64(x>>11) / float64(1<<53)
		return base(at) * (0.3 + 1.4*u), sample.OK
	}
}

// stallThenDrain answers in 50 ms, but holds what is sent from hold to
// 14 s until 14.3 s (a stall), and what is sent from 3 s to 6 s until
// 6.2 s; the held requests of the second stall fail with a 503.
func stallThenDrain(hold float64) served {
	return func(at float64) (float64, sample.Kind) {
		switch {
		case at >= 3 && at < 6:
			return 6.2 - at, sample.OK
		case at >= hold && at < 14:
			return 14.3 - at, sample.HTTP5xx
		}
		return 0.05, sample.OK
	}
}

// hangsFrom answers in 50 ms until from, then never: each request times out after 5 s.
func hangsFrom(from float64) served {
	return func(at float64) (float64, sample.Kind) {
		if at >= from {
			return 5, sample.Timeout
		}
		return 0.05, sample.OK
	}
}

// offeredCases are the runs issue 20 found offered load rebuilt from
// completions in, each a flat schedule. was is what the findings said of
// the same seconds rebuilt from completions (a run.db of an earlier build,
// before the errors were judged at the load their requests were sent at);
// want is what a finding must say now, and none may be a saturation.
func offeredCases() []offeredCase {
	return []offeredCase{
		{"flat 4/s, uneven latency", 4, simulateOpen(4, 30, 30, jittery(8, func(at float64) float64 { return 0.3 + 0.1*at })),
			"Saturation at 4 req/s from 0:14 (9 in flight): offered load rose to 6 req/s", ""},
		{"flat 8/s, uneven latency", 8, simulateOpen(8, 30, 30, jittery(65, func(at float64) float64 { return 0.3 + 0.08*at })),
			"Saturation at 8 req/s from 0:15 (14 in flight): offered load rose to 11 req/s", ""},
		{"2/s, a queue drained after a stall", 2, simulateOpen(2, 22, 22, stallThenDrain(11.5)),
			"Errors start at 8 req/s offered (0:14)", "Errors from 0:14 at a load served before (2 req/s offered)"},
		{"4/s, timeouts after the schedule's end", 4, simulateOpen(4, 10, 16, hangsFrom(7)),
			"first failing second: 4 of 4 requests failed at 0 req/s offered",
			"first failing second: 4 of 4 requests failed at 4 req/s offered (they were sent at 0:07)"},
	}
}

// offeredCase is a run of a flat schedule and what its findings say.
type offeredCase struct {
	name      string
	rate      float64
	secs      []sec
	was, want string
}

// TestOfferedIsWhatTheScheduleOffered checks the findings of runs with a
// flat schedule against what it offered: every offered figure is its
// rate, a flat load shows no knee, and errors are judged at the load their
// requests were sent at.
func TestOfferedIsWhatTheScheduleOffered(t *testing.T) {
	for _, tc := range offeredCases() {
		t.Run(tc.name, func(t *testing.T) {
			fs := Diagnose(Input{Run: build(t, layout(modelArrivalRate, "GET /owners"), tc.secs)})
			text := allText(fs)
			if !strings.Contains(text, tc.want) || strings.Contains(text, tc.was) {
				t.Errorf("findings:\n%s\nwant %q, not %q", text, tc.want, tc.was)
			}
			for _, f := range fs {
				if f.Kind == KindSaturation {
					t.Errorf("a flat schedule saturated: %s", title(f))
				}
				for _, g := range f.Figures {
					if g.Source == SrcOffered && g.Value != tc.rate {
						t.Errorf("%s: %s = %v, the schedule offered %v", f.Kind, g.What, g.Value, tc.rate)
					}
				}
			}
		})
	}
}

// findingText is a finding's title and evidence, one a line.
func findingText(f Finding) string {
	text := title(f)
	for _, e := range f.Evidence {
		text += "\n" + evidenceText(f, e)
	}
	return text
}

// allText is the findings' titles and evidence, one a line.
func allText(fs []Finding) string {
	var b strings.Builder
	for _, f := range fs {
		b.WriteString(title(f) + "\n")
		for _, e := range f.Evidence {
			b.WriteString("  " + evidenceText(f, e) + "\n")
		}
	}
	return b.String()
}
