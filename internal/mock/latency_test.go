package mock

import (
	"math"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"testing/synctest"
	"time"
)

// quantile returns the q-quantile of sorted ds (nearest rank).
func quantile(ds []time.Duration, q float64) time.Duration {
	i := int(math.Ceil(q*float64(len(ds)))) - 1
	return ds[max(0, min(i, len(ds)-1))]
}

func within(got, want time.Duration, tol float64) bool {
	return math.Abs(float64(got-want)) <= tol*float64(want)
}

func TestLatencyDistributions(t *testing.T) {
	const n = 200_000
	ms := time.Millisecond
	for _, c := range []struct {
		name string
		l    Latency
		want map[float64]time.Duration // quantile → delay, within 2 %
	}{
		{"fixed", Latency{Kind: "fixed", Fixed: 7 * ms}, map[float64]time.Duration{0.01: 7 * ms, 0.99: 7 * ms}},
		{"uniform", Latency{Kind: "uniform", Min: 10 * ms, Max: 30 * ms}, map[float64]time.Duration{0.25: 15 * ms, 0.5: 20 * ms, 0.75: 25 * ms}},
		{"normal", Latency{Kind: "normal", Mean: 100 * ms, Std: 10 * ms}, map[float64]time.Duration{0.5: 100 * ms, 0.8413: 110 * ms, 0.1587: 90 * ms}},
		{"lognormal p99", lognormal(80*ms, "p99", 400*ms), map[float64]time.Duration{0.5: 80 * ms, 0.99: 400 * ms}},
		{"lognormal p90", lognormal(20*ms, "p90", 60*ms), map[float64]time.Duration{0.5: 20 * ms, 0.9: 60 * ms}},
		{"percentiles", percentiles([]Point{{0.5, 20 * ms}, {0.9, 60 * ms}, {0.99, 250 * ms}}),
			map[float64]time.Duration{0.25: 10 * ms, 0.5: 20 * ms, 0.7: 40 * ms, 0.9: 60 * ms, 0.99: 250 * ms}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(1, 2))
			ds := make([]time.Duration, n)
			for i := range ds {
				ds[i] = c.l.Sample(r)
			}
			slices.Sort(ds)
			for q, want := range c.want {
				if got := quantile(ds, q); !within(got, want, 0.02) {
					t.Errorf("p%g = %s, want %s ± 2%%", q*100, got, want)
				}
			}
			if ds[0] < 0 {
				t.Errorf("negative delay %s", ds[0])
			}
		})
	}
}

func TestNormalNeverNegative(t *testing.T) {
	l := Latency{Kind: "normal", Mean: time.Millisecond, Std: 10 * time.Millisecond}
	r := rand.New(rand.NewPCG(3, 4))
	for range 10_000 {
		if d := l.Sample(r); d < 0 {
			t.Fatalf("negative delay %s", d)
		}
	}
}

// TestAppliedLatency serves many requests through the handler on a fake
// clock and checks the delays it applied, as measured around each request,
// against the configured log-normal: p50 and p99 within 5 %.
func TestAppliedLatency(t *testing.T) {
	cfg, err := Parse("m.yaml", []byte("routes:\n  - get: /\n    latency: {lognormal: {p50: 80ms, p99: 400ms}}\n    body: ok\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	const n = 50_000
	synctest.Test(t, func(t *testing.T) {
		h := newHandler(cfg)
		applied := make([]time.Duration, 0, n)
		for range n {
			start := time.Now()
			w := httptest.NewRecorder()
			h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/", nil))
			applied = append(applied, time.Since(start))
			if w.Code != 200 || w.Body.String() != "ok" {
				t.Fatalf("answer %d %q", w.Code, w.Body)
			}
		}
		slices.Sort(applied)
		for _, c := range []struct {
			q    float64
			want time.Duration
		}{{0.5, 80 * time.Millisecond}, {0.99, 400 * time.Millisecond}} {
			if got := quantile(applied, c.q); !within(got, c.want, 0.05) {
				t.Errorf("applied p%g = %s, want %s ± 5%%", c.q*100, got, c.want)
			}
		}
		st := cfg.Routes[0].stats
		if got := st.byStatus[200].Load(); got != n {
			t.Errorf("mock_requests_total counted %d, sent %d", got, n)
		}
		var delays uint64
		for i := range st.delay.counts {
			delays += st.delay.counts[i].Load()
		}
		if delays != n {
			t.Errorf("injected latency histogram counted %d, sent %d", delays, n)
		}
	})
}
