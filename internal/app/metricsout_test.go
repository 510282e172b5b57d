package app

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/output"
	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/store"
)

// outputRun runs 60 requests at 20 a second with the given outputs and
// returns the run, its summary.json, its printed summary and what the
// target counted.
func outputRun(t *testing.T, outs []plan.Output) (RunResult, map[string]any, string, int64) {
	t.Helper()
	var n atomic.Int64
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { n.Add(1) }))
	defer target.Close()
	p, err := plan.Parse("t.yaml", []byte(fmt.Sprintf(`
base_url: %s
scenarios:
  s:
    rate: 20
    duration: 3s
    flow:
      - get: /x
`, target.URL)), nil)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res, err := Run(ctx, RunConfig{Plan: p, ResultsDir: t.TempDir(), Out: &out, Quiet: true, Version: "test", Outs: outs,
		tuneOutputs: func(c *output.Config) { c.Timeout, c.Flush = time.Hour, time.Second }})
	if err != nil {
		t.Fatalf("Run: %v\n%s", err, out.String())
	}
	b, err := os.ReadFile(filepath.Join(res.Dir, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var sum map[string]any
	if err := json.Unmarshal(b, &sum); err != nil {
		t.Fatal(err)
	}
	return res, sum, out.String(), n.Load()
}

// TestDeadOutputsNeverSlowTheLoad runs the same test without outputs and
// with a store that stalls forever and one that answers 500: the load is
// the same (every planned request, in about the same time), run.db keeps
// every second, and the summary counts every second the stores missed.
func TestDeadOutputsNeverSlowTheLoad(t *testing.T) {
	release := make(chan struct{})
	stalled := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer stalled.Close()
	defer close(release)
	failing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "no space left", http.StatusInternalServerError)
	}))
	defer failing.Close()

	_, base, _, baseServed := outputRun(t, nil)
	res, sum, printed, served := outputRun(t, []plan.Output{
		{Kind: plan.OutPrometheusRW, URL: stalled.URL + "/api/v1/write"},
		{Kind: plan.OutInfluxDB, URL: failing.URL + "/write?db=k6"},
	})
	reqs := func(s map[string]any) float64 {
		return s["metrics"].(map[string]any)["http_reqs"].(map[string]any)["count"].(float64)
	}
	elapsed := func(s map[string]any) float64 { return s["state"].(map[string]any)["testRunDurationMs"].(float64) }
	if reqs(sum) != 60 || reqs(base) != 60 || served != 60 || baseServed != 60 {
		t.Errorf("requests: %v with the dead outputs (target saw %d), %v without (target saw %d); want 60 each", reqs(sum), served, reqs(base), baseServed)
	}
	if d, b := elapsed(sum), elapsed(base); d > 1.5*b {
		t.Errorf("the run took %.0f ms with dead outputs, %.0f ms without: more than half again", d, b)
	}

	rd, err := store.Open(filepath.Join(res.Dir, "run.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	var seconds int64
	if err := rd.Snapshots(func(*metrics.Snapshot) error { seconds++; return nil }); err != nil {
		t.Fatal(err)
	}
	if seconds < 3 {
		t.Fatalf("run.db holds %d seconds, want the run's 3 or more", seconds)
	}
	outs, _ := sum["loadlens"].(map[string]any)["outputs"].([]any)
	if len(outs) != 2 {
		t.Fatalf("summary.json lists %d outputs, want 2: %v", len(outs), sum["loadlens"].(map[string]any)["outputs"])
	}
	for _, o := range outs {
		o := o.(map[string]any)
		if o["offered_seconds"].(float64) != float64(seconds) || o["dropped_seconds"].(float64) != float64(seconds) || o["sent_seconds"].(float64) != 0 {
			t.Errorf("%v: want all %d seconds offered and dropped, none sent", o, seconds)
		}
	}
	warnings := fmt.Sprint(sum["loadlens"].(map[string]any)["warnings"])
	for _, u := range []string{stalled.URL, failing.URL} {
		want := fmt.Sprintf("%d of %d seconds were not delivered", seconds, seconds)
		if !strings.Contains(warnings, u) || !strings.Contains(warnings, want) {
			t.Errorf("summary.json's warnings do not say %q for %s: %s", want, u, warnings)
		}
		if !strings.Contains(printed, u) || !strings.Contains(printed, want) {
			t.Errorf("the printed summary does not say %q for %s:\n%s", want, u, printed)
		}
	}
	if !strings.Contains(printed, "500 Internal Server Error: no space left") {
		t.Errorf("the printed summary does not say why the failing store lost its seconds:\n%s", printed)
	}
}

// TestOutputWithoutTokenRefusedBeforeTheRun: an InfluxDB 2 output without
// its token is bad input, refused before the run makes a directory or
// sends a request.
func TestOutputWithoutTokenRefusedBeforeTheRun(t *testing.T) {
	t.Setenv(output.InfluxTokenEnv, "")
	var n atomic.Int64
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { n.Add(1) }))
	defer target.Close()
	p, err := plan.Parse("t.yaml", []byte(fmt.Sprintf(`
base_url: %s
outputs:
  - influxdb2=http://127.0.0.1:1/api/v2/write?org=o&bucket=b
scenarios:
  s:
    model: iterations
    vus: 1
    iterations: 3
    flow:
      - get: /x
`, target.URL)), nil)
	if err != nil {
		t.Fatal(err)
	}
	results := filepath.Join(t.TempDir(), "results")
	var out bytes.Buffer
	res, err := Run(context.Background(), RunConfig{Plan: p, ResultsDir: results, Out: &out, Quiet: true, Version: "test"})
	if err == nil || !strings.Contains(err.Error(), output.InfluxTokenEnv) || res.ExitCode != ExitBadInput {
		t.Fatalf("Run: %v (exit %d), want a usage error naming $%s", err, res.ExitCode, output.InfluxTokenEnv)
	}
	if _, statErr := os.Stat(results); !os.IsNotExist(statErr) || n.Load() != 0 {
		t.Errorf("a refused run made %s (%v) or sent %d requests", results, statErr, n.Load())
	}
}
