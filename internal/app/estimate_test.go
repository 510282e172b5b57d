package app

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/loadlens/loadlens/internal/estimate"
	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/store"
	"github.com/loadlens/loadlens/internal/threshold"
)

func TestEstimateInstancesFromACapacitySearch(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "capacity.json"), []byte(`{"Highest": 125}`), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	err := Estimate(EstimateConfig{Input: estimate.Input{RPS: 1000, Headroom: 1}, FromRun: dir, RunInst: 1, Out: &out})
	if err != nil {
		t.Fatal(err)
	}
	flat := strings.Join(strings.Fields(out.String()), " ") // a formula may wrap anywhere
	if !strings.Contains(flat, "capacity search") || !strings.Contains(flat, "= 8 ") || !strings.Contains(flat, "(125/s over 1 instance)") {
		t.Fatalf("want 1000/s ÷ 125/s per instance = 8 instances, from 125/s over 1 instance:\n%s", out.String())
	}
	for i, line := range strings.Split(out.String(), "\n") {
		if n := utf8.RuneCountInString(line); n > 100 {
			t.Errorf("line %d is %d columns wide:\n%s", i+1, n, line)
		}
	}
}

// writeFailingRun writes a run.db of secs seconds at reqs requests, the
// share failed of them answered 503, every duration d, judged by defs.
func writeFailingRun(t *testing.T, dir string, defs []threshold.Threshold, secs, reqs int, failed float64, d time.Duration) string {
	t.Helper()
	src := "base_url: http://127.0.0.1:1\nscenarios:\n  s:\n    model: arrival-rate\n    rate: 10\n    duration: 1s\n" +
		"    flow:\n      - get: /\n"
	p, err := plan.Parse("f.yaml", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	w, err := store.Create(filepath.Join(dir, "run.db"), store.Meta{ID: "f", Name: "f", Version: "test", Start: time.Unix(1e9, 0),
		Layout: p.Layout, Extra: map[string]string{"thresholds": encodeThresholds(defs)}})
	if err != nil {
		t.Fatal(err)
	}
	for sec := range secs {
		snap := metrics.NewSnapshot(sec, p.Layout)
		es := &snap.Endpoints[0]
		es.Duration, es.Waiting = metrics.NewHist(), metrics.NewHist()
		for range reqs {
			es.Duration.Record(d)
			es.Waiting.Record(d)
		}
		es.Requests = int64(reqs)
		es.Failures[sample.HTTP5xx] = int64(math.Round(failed * float64(reqs)))
		if err := w.WriteSecond(snap); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Finish(store.Finish{End: time.Unix(1e9+int64(secs), 0), Status: StatusCompleted, Elapsed: time.Duration(secs) * time.Second}); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestEstimateFromARunCountsSuccessesWithinTheSLO: the field trial's case 3
// run (65 % 503s, p95 3 s, 400 req/s offered) was planned as 16 instances of
// 242 req/s; failed requests and seconds past the SLO are not capacity.
func TestEstimateFromARunCountsSuccessesWithinTheSLO(t *testing.T) {
	slo := func(kv ...string) []threshold.Threshold {
		var defs []threshold.Threshold
		for i := 0; i+1 < len(kv); i += 2 {
			th, err := threshold.New(kv[i], kv[i+1])
			if err != nil {
				t.Fatal(err)
			}
			defs = append(defs, th)
		}
		return defs
	}
	tests := []struct {
		name        string
		defs        []threshold.Threshold
		in          estimate.Input
		reqs        int
		failed      float64
		d           time.Duration
		wantErr     error
		wantInFlat  []string
		wantNoInOut string
		wantInErr   []string // in the error, spaces collapsed
	}{
		{name: "case 3: 65% failed, p95 3s: no sustainable rate",
			defs: slo("http_req_duration", "p(95) < 100ms", "http_req_failed", "rate < 0.01"),
			in:   estimate.Input{RPS: 3700}, reqs: 400, failed: 0.65, d: 3 * time.Second,
			wantErr: ErrNoSustainableRate, wantNoInOut: "instances",
			wantInErr: []string{"errors < 1% failed in 18 of 18 seconds",
				"p(95) < 100ms failed in 18 of 18 seconds: more than 5% of requests failed, more than p(95) leaves out"}},
		{name: "half failed fast within --max-errors 99%: the p(95) limit fails on the failures it leaves out",
			in: estimate.Input{RPS: 1000, MaxErrors: 0.99}, reqs: 400, failed: 0.5, d: 500 * time.Microsecond,
			wantErr: ErrNoSustainableRate, wantNoInOut: "instances",
			wantInErr: []string{"p(95) < 1s and errors < 99% (given) (p(95) < 1s failed in 18 of 18 seconds: " +
				"more than 5% of requests failed, more than p(95) leaves out)"}},
		{name: "failures within the budget: only the successes count",
			defs: slo("http_req_failed", "rate < 0.10"),
			in:   estimate.Input{RPS: 3700}, reqs: 400, failed: 0.05, d: 50 * time.Millisecond,
			wantInFlat: []string{"3,700 req/s ÷ 380 req/s per instance", "= 10 instances", "380/s over the 18 of its steady part's 18 seconds"}},
		{name: "--latency-goal and --max-errors replace the run's thresholds",
			defs: slo("http_req_duration", "p(95) < 10ms"),
			in:   estimate.Input{RPS: 3700, LatencyGoal: time.Second, MaxErrors: 0.02}, reqs: 400, failed: 0.01, d: 50 * time.Millisecond,
			wantInFlat: []string{"÷ 396 req/s per instance", "p(95) < 1s and errors < 2% (given)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := writeFailingRun(t, t.TempDir(), tt.defs, 20, tt.reqs, tt.failed, tt.d)
			var out bytes.Buffer
			err := Estimate(EstimateConfig{Input: tt.in, FromRun: dir, Out: &out})
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("err = %v, want %v; printed:\n%s", err, tt.wantErr, out.String())
			}
			flat := strings.Join(strings.Fields(out.String()), " ")
			for _, want := range tt.wantInErr {
				if got := strings.Join(strings.Fields(err.Error()), " "); !strings.Contains(got, want) {
					t.Errorf("want %q in the error:\n%s", want, err)
				}
			}
			for _, want := range tt.wantInFlat {
				if !strings.Contains(flat, want) {
					t.Errorf("want %q in:\n%s", want, out.String())
				}
			}
			if tt.wantNoInOut != "" && strings.Contains(out.String(), tt.wantNoInOut) {
				t.Errorf("printed an instance count for a run that sustained nothing:\n%s", out.String())
			}
			if err != nil {
				for _, line := range strings.Split("loadlens: "+err.Error(), "\n") { // as fail prints it
					if n := utf8.RuneCountInString(line); n > 100 {
						t.Errorf("error line is %d columns: %s", n, line)
					}
				}
			}
		})
	}
}
