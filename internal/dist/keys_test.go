package dist

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/sample"
)

// keysLayout is one open scenario of 5 minutes, one endpoint with a check,
// and a threshold's status 200 kept.
var keysLayout = sample.Layout{Endpoints: []sample.EndpointInfo{{Name: "GET /g"}}, Scenarios: []sample.ScenarioInfo{{Name: "s", Model: "arrival-rate"}},
	Checks: []sample.CheckInfo{{Name: "status is 200"}}, Statuses: []int{200}}

// keysHonest is second sec as an agent's recorder makes it: n requests
// of 1 ms answered 200, their check passed, n iterations.
func keysHonest(sec int, n int64) *metrics.Snapshot {
	s := metrics.NewSnapshot(sec, keysLayout)
	e := &s.Endpoints[0]
	e.Requests, e.Duration = n, metrics.NewHist()
	status := metrics.StatusFigures{Requests: n, Duration: metrics.NewHist()}
	for range n {
		e.Duration.Record(time.Millisecond)
		status.Duration.Record(time.Millisecond)
	}
	e.ByStatus = []metrics.StatusFigures{status}
	s.Checks[0].Passes, s.Checks[0].Statuses = n, []metrics.CheckStatus{{Status: 200, Passes: n}}
	s.Scenarios[0].Iterations, s.Scenarios[0].VUs, s.Scenarios[0].VUsMax = n, 1, 1
	return s
}

// keysRun is one fake agent sending seconds 0 to secs-1 of keysLayout's
// test to the coordinator's reader (takeSecond), each of 100 requests,
// changed by tamper from second 3 on; each second is merged (Second) into
// a run as the collector does. It returns the run, the merged second
// last taken, and why the agent was lost ("" if it was not).
func keysRun(t *testing.T, secs int, tamper func(s *metrics.Snapshot)) (*metrics.Run, *metrics.Snapshot, string) {
	t.Helper()
	load := plan.Load{Model: plan.ArrivalRate, StartRate: 100, MaxVUs: 10, Stages: []plan.Stage{{Duration: 5 * time.Minute, Target: 100}}}
	p := &plan.Plan{Layout: keysLayout, Scenarios: []*plan.Scenario{{Name: "s", Load: load}}}
	g := newGenerator(p, []*remote{{name: "agent 1", addr: "10.0.0.5:6565", seg: segments(1)[0]}}, time.Second)
	g.start, g.notify = time.Now().Add(-time.Hour), func(string) {}
	run, a := metrics.NewRun(keysLayout), g.agents[0]
	var merged *metrics.Snapshot
	for sec := range secs {
		s := keysHonest(sec, 100)
		if sec >= 3 {
			tamper(s)
		}
		b, err := s.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if why := g.takeSecond(a, secondFrame(secondHead{sec: sec, cpu: 0.1, cpuWall: 1, stall: math.NaN(), wait: math.NaN()}, b)); why != "" {
			g.lose(a, why)
			return run, merged, why
		}
		merged = g.Second(sec)
		run.Add(merged)
	}
	return run, merged, ""
}

// keptKeys is how many error samples, reasons not sent, check statuses
// and statuses kept by request a run's totals hold, and their messages'
// bytes.
func keptKeys(r *metrics.Run) (keys, bytes int) {
	for _, e := range r.Endpoints {
		keys += len(e.ByStatus)
		for _, g := range e.Errors {
			for _, s := range g.Samples {
				keys, bytes = keys+1, bytes+len(s.Message)
			}
		}
	}
	for _, sc := range r.Scenarios {
		for _, s := range sc.NotSentWhy {
			keys, bytes = keys+1, bytes+len(s.Message)
		}
	}
	for _, c := range r.Checks {
		keys += len(c.Statuses)
	}
	return keys, bytes
}

// snapshotBytes is the bytes of the messages second s holds.
func snapshotBytes(s *metrics.Snapshot) int {
	n := 0
	for _, e := range s.Endpoints {
		for _, es := range e.Errors {
			n += len(es.Message)
		}
	}
	for _, sc := range s.Scenarios {
		for _, es := range sc.NotSentWhy {
			n += len(es.Message)
		}
	}
	return n
}

// failWith makes s's requests fail with samples: each counted as
// failures of its kind, the rest of the requests left as they were.
func failWith(s *metrics.Snapshot, samples ...metrics.ErrorSample) {
	e := &s.Endpoints[0]
	for _, es := range samples {
		e.Failures[es.Kind] += es.Count
	}
	e.Errors = samples
}

// TestAgentsKeysAreBounded: what a second of an agent keys by a status,
// a kind or a message is what the agent's recorder can make, each second
// after second: a status an answer has (three digits from 100), at most
// three samples of a kind, counting no more than the kind's failures, the
// layout's statuses kept by request; else the agent is lost, its three
// seconds before kept. A message longer than any the engine writes is cut
// with a mark (the agent not lost), so that the run, which keeps three a
// kind an endpoint and prints them, holds no more than maxErrorText of
// each: a fake agent's 78 messages of 13 kB a second (three of each kind), each
// new, left 1 MB of them in the run's totals and in every merged second.
func TestAgentsKeysAreBounded(t *testing.T) {
	kinds := int(sample.NumKinds) - 1 // every failure kind
	long := func(sec, k, j int) string {
		return strings.Repeat(string(rune('a'+sec%26))+string(rune('a'+k%26))+string(rune('a'+j)), (1<<20)/(3*kinds)/3)
	}
	for _, tc := range []struct {
		name   string
		tamper func(s *metrics.Snapshot)
		want   string // why the agent is lost; "": it is not
	}{
		{"error statuses 1000 and on, new each second", func(s *metrics.Snapshot) {
			failWith(s, metrics.ErrorSample{Kind: sample.HTTP5xx, Status: 1000 + s.Second, Message: "500 Internal Server Error", Count: 1})
		}, `sent a bad second: endpoint "GET /g": its http_5xx error sample of status 1003, which no answer has (100 to 999)`},
		{"a negative status", func(s *metrics.Snapshot) {
			failWith(s, metrics.ErrorSample{Kind: sample.HTTP4xx, Status: -404, Message: "404 Not Found", Count: 1})
		}, `sent a bad second: endpoint "GET /g": its http_4xx error sample of status -404, which no answer has (100 to 999)`},
		{"more samples of a kind than a second keeps", func(s *metrics.Snapshot) {
			var es []metrics.ErrorSample
			for j := range 50 {
				es = append(es, metrics.ErrorSample{Kind: sample.Other, Message: "other " + string(rune('a'+j%26)) + string(rune('a'+j/26)), Count: 1})
			}
			failWith(s, es...)
		}, `sent a bad second: endpoint "GET /g": 4 other error samples in a second, more than the 3 one keeps`},
		{"a sample counting more than its kind's failures", func(s *metrics.Snapshot) {
			failWith(s, metrics.ErrorSample{Kind: sample.Timeout, Message: "timeout", Count: 1})
			s.Endpoints[0].Errors[0].Count = 1 << 40
		}, `sent a bad second: endpoint "GET /g": its timeout error sample "timeout" counts 1,099,511,627,776, and those before it 0, of 1 timeout failure`},
		{"error kinds past the build's", func(s *metrics.Snapshot) {
			s.Endpoints[0].Errors = []metrics.ErrorSample{{Kind: sample.NumKinds + 7, Message: "k", Count: 1}}
		}, `invalid kind`},
		{"check statuses 1000 and on, new each second", func(s *metrics.Snapshot) {
			s.Checks[0].Statuses = []metrics.CheckStatus{{Status: 1000 + s.Second, Passes: 100}}
		}, `sent a bad second: check "status is 200": its outcomes on answers of status 1003, which no answer has (100 to 999)`},
		{"statuses kept by request not the layout's", func(s *metrics.Snapshot) {
			s.Endpoints[0].ByStatus = make([]metrics.StatusFigures, 50_000)
		}, `sent a bad second: endpoint "GET /g": its requests by 50,000 statuses, where the test keeps them by 1`},
		{"requests of a status past the second's", func(s *metrics.Snapshot) {
			s.Endpoints[0].ByStatus[0].Requests = 1 << 40
		}, `sent a bad second: endpoint "GET /g": 1,099,511,627,776 requests of status 200, of a second of 100 requests`},
		{"a status's durations not its requests", func(s *metrics.Snapshot) {
			s.Endpoints[0].ByStatus[0].Requests = 7
		}, `sent a bad second: endpoint "GET /g": its status 200's duration histogram holds 100 requests, the status 7 requests`},
		{"reasons not sent counting more than the iterations not sent", func(s *metrics.Snapshot) {
			s.Scenarios[0].NotSent, s.Scenarios[0].NotSentWhy = 1, []metrics.ErrorSample{{Kind: sample.Other, Message: "not sent: no value", Count: 1 << 40}}
		}, `sent a bad second: scenario "s": its reasons not sent count 1,099,511,627,776, of 1 iteration not sent`},
		{"long messages, new each second", func(s *metrics.Snapshot) {
			var es []metrics.ErrorSample
			for k := sample.OK + 1; k < sample.NumKinds; k++ {
				for j := range 3 {
					es = append(es, metrics.ErrorSample{Kind: k, Message: long(s.Second, int(k), j), Count: 1})
				}
			}
			failWith(s, es...)
			s.Scenarios[0].NotSent = 3
			for j := range 3 {
				s.Scenarios[0].NotSentWhy = append(s.Scenarios[0].NotSentWhy, metrics.ErrorSample{Kind: sample.Other, Message: long(s.Second, 99, j), Count: 1})
			}
		}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			const secs = 30
			run, last, lost := keysRun(t, secs, tc.tamper)
			if tc.want == "" {
				if lost != "" {
					t.Fatalf("the agent was lost: %s", lost)
				}
				most := (3*kinds + 3) * (maxErrorText + 64) // every kind's samples and the reasons not sent, each cut with its mark
				keys, bytes := keptKeys(run)
				t.Logf("after %d seconds: %d keys and %d bytes of messages kept, %d in the last second", secs, keys, bytes, snapshotBytes(last))
				if keys > 3*kinds+3+2 || bytes > most || snapshotBytes(last) > most {
					t.Errorf("after %d seconds of new long messages the run keeps %d keys and %d bytes of messages, its last second %d bytes; want at most %d keys and %d bytes",
						secs, keys, bytes, snapshotBytes(last), 3*kinds+3+2, most)
				}
				if len(run.Series) != secs {
					t.Errorf("%d seconds taken, want %d", len(run.Series), secs)
				}
				return
			}
			if !strings.Contains(lost, tc.want) {
				t.Errorf("the agent was lost for %q, want %q", lost, tc.want)
			}
			if len(run.Series) != 3 || totalRequests(run) != 300 {
				t.Errorf("%d seconds of %d requests kept, want the 3 seconds of 100 before the agent went wrong", len(run.Series), totalRequests(run))
			}
			if keys, _ := keptKeys(run); keys > 2 {
				t.Errorf("the run keeps %d keys, want the 2 of the honest seconds (status 200 by request and the check's)", keys)
			}
		})
	}
}
