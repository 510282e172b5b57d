package engine

import (
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"regexp"
	"sync"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/sample"
)

// traceparentRE is a valid version-00 traceparent.
var traceparentRE = regexp.MustCompile(`^00-([0-9a-f]{32})-([0-9a-f]{16})-0([01])$`)

// TestEveryRequestCarriesATraceparent: both clients send a fresh traceparent
// per request whose trace id and flag are the ones recorded, the sampled
// share follows the ratio, tracestate and baggage go along, and a step's
// own traceparent wins (its id recorded).
func TestEveryRequestCarriesATraceparent(t *testing.T) {
	const n = 400
	own := "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"
	for _, c := range clients() {
		for _, tc := range []struct {
			name       string
			sample     float64
			stepOwn    bool
			minS, maxS int // sampled requests, of n
		}{
			{"none sampled", 0, false, 0, 0},
			{"all sampled", 1, false, n, n},
			{"a tenth", 0.1, false, n / 20, n / 5}, // generous: binomial(400, 0.1) lies in 20–80 with overwhelming probability
			{"own header", 0.5, true, n, n},
		} {
			t.Run(c.name+"/"+tc.name, func(t *testing.T) {
				var mu sync.Mutex
				got := map[string]string{} // traceparent → tracestate+baggage
				srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					mu.Lock()
					got[r.Header.Get("traceparent")] = r.Header.Get("tracestate") + "|" + r.Header.Get("baggage")
					if len(r.Header.Values("traceparent")) != 1 {
						got["dup"] = "more than one traceparent"
					}
					mu.Unlock()
				}))
				defer srv.Close()
				step := get(srv.URL)
				if tc.stepOwn {
					step.Request.Headers = []plan.Header{hdr("TraceParent", own)}
				}
				s := scenario(plan.Load{Model: plan.Iterations, VUCount: 2, Count: n, MaxDuration: time.Minute}, step)
				opts := c.opts
				opts.Trace = TraceOptions{Sample: tc.sample, TraceState: []byte("loadlens=run-1"), Baggage: []byte("loadlens.run=run-1")}
				rec, _ := runPlan(t, &plan.Plan{Scenarios: []*plan.Scenario{s}}, opts)
				if len(rec.reqs) != n {
					t.Fatalf("%d samples, want %d", len(rec.reqs), n)
				}
				if d, ok := got["dup"]; ok {
					t.Fatal(d)
				}
				sampled := 0
				for _, q := range rec.reqs {
					if q.Trace.IsZero() {
						t.Fatalf("a sample with no trace id: %+v", q)
					}
					if q.Sampled {
						sampled++
					}
				}
				if sampled < tc.minS || sampled > tc.maxS {
					t.Errorf("%d of %d requests sampled, want %d–%d", sampled, n, tc.minS, tc.maxS)
				}
				if tc.stepOwn {
					if len(got) != 1 || got[own] != "|" || rec.reqs[0].Trace.String() != own[3:35] {
						t.Errorf("the step's own traceparent should be the only one sent, and recorded: got %v, recorded %s", got, rec.reqs[0].Trace)
					}
					return
				}
				if len(got) != n {
					t.Fatalf("%d distinct traceparents for %d requests", len(got), n)
				}
				for _, q := range rec.reqs {
					found := false
					for tp, extra := range got {
						m := traceparentRE.FindStringSubmatch(tp)
						if m == nil {
							t.Fatalf("invalid traceparent %q", tp)
						}
						if m[1] == q.Trace.String() {
							found = true
							if (m[3] == "1") != q.Sampled {
								t.Errorf("traceparent %s sent, sample recorded sampled=%v", tp, q.Sampled)
							}
							if extra != "loadlens=run-1|loadlens.run=run-1" {
								t.Errorf("tracestate|baggage %q", extra)
							}
						}
					}
					if !found {
						t.Fatalf("trace id %s recorded but never sent", q.Trace)
					}
				}
			})
		}
	}
}

func TestParseTraceparent(t *testing.T) {
	for _, tc := range []struct {
		in      string
		id      string
		sampled bool
	}{
		{"00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", "0af7651916cd43dd8448eb211c80319c", true},
		{"00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00", "0af7651916cd43dd8448eb211c80319c", false},
		{"01-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", "00000000000000000000000000000000", false},
		{"00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331", "00000000000000000000000000000000", false},
		{"00-zzf7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", "00000000000000000000000000000000", false},
	} {
		id, s := parseTraceparent([]byte(tc.in))
		if id.String() != tc.id || s != tc.sampled {
			t.Errorf("%s: %s %v, want %s %v", tc.in, id, s, tc.id, tc.sampled)
		}
	}
}

// BenchmarkAddTrace is the per-request cost of the trace context: ids,
// the sampling draw and the header lines.
func BenchmarkAddTrace(b *testing.B) {
	var h stepHeaders
	rnd := rand.New(rand.NewPCG(1, 2))
	o := &TraceOptions{Sample: 0.1, TraceState: []byte("loadlens=run-1")}
	var s sample.Request
	b.ReportAllocs()
	for b.Loop() {
		h.lines = h.lines[:0]
		h.addTrace(rnd, o, &s)
	}
}
