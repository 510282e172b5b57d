package app

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/capacity"
	"github.com/loadlens/loadlens/internal/diagnose"
	"github.com/loadlens/loadlens/internal/plan"
)

// workerServer has k workers that each take s per request; past C = k/s
// requests queue, so its capacity is known by construction.
func workerServer(t *testing.T, k int, s time.Duration) *httptest.Server {
	workers := make(chan struct{}, k)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case workers <- struct{}{}:
		case <-r.Context().Done():
			return
		}
		time.Sleep(s) // the service time under test, not synchronisation
		<-workers
		w.Write([]byte("ok"))
	}))
	t.Cleanup(srv.Close)
	return srv
}

func parseTest(t *testing.T, yaml string) *plan.Plan {
	t.Helper()
	p, err := plan.Parse("capacity.yaml", []byte(yaml), nil)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestCapacityFindsAKnownCapacity(t *testing.T) {
	if testing.Short() {
		t.Skip("a capacity search of about ten 3-second steps")
	}
	srv := workerServer(t, 4, 20*time.Millisecond) // C = 200/s
	p := parseTest(t, fmt.Sprintf(`
base_url: %s
thresholds:
  http_req_duration: ["p(95) < 80ms"]
  http_req_failed: ["rate < 0.01"]
scenarios:
  orders:
    rate: 100
    duration: 10s
    flow:
      - get: /
`, srv.URL))
	var out bytes.Buffer
	dir := t.TempDir()
	res, err := Capacity(context.Background(), CapacityConfig{Plan: p, ResultsDir: dir, Out: &out,
		// a noisy 2-core machine can stall the generator for 100 ms now and then;
		// this test is about the capacity, so only a gross stall stops it
		Search: capacity.Config{StartRate: 50, Factor: 1.5, Hold: 3 * time.Second, Budget: 2 * time.Minute, Precision: 0.05, MaxLag: time.Second}})
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	got := res.Result.Highest
	if got < 170 || got > 230 {
		t.Fatalf("highest sustainable rate %.0f/s, want 200/s ±15%%\n%s", got, out.String())
	}
	if res.Result.Stop != capacity.Converged || res.ExitCode != ExitOK {
		t.Errorf("stopped: %s (exit %d), want converged", res.Result.Stop, res.ExitCode)
	}
	for _, f := range []string{"capacity.json", "capacity.html"} {
		if _, err := os.Stat(filepath.Join(res.Dir, f)); err != nil {
			t.Errorf("%s missing: %v", f, err)
		}
	}
	steps, _ := filepath.Glob(filepath.Join(res.Dir, "*", "run.db"))
	if len(steps) != len(res.Result.Steps) {
		t.Errorf("%d step runs on disk for %d steps", len(steps), len(res.Result.Steps))
	}
	if !strings.Contains(out.String(), "highest sustainable rate") {
		t.Errorf("no outcome printed:\n%s", out.String())
	}
}

func TestCapacityStopsWhenTheGeneratorIsCapped(t *testing.T) {
	srv := workerServer(t, 8, 20*time.Millisecond) // C = 400/s, but 2 VUs serve only ~100/s
	p := parseTest(t, fmt.Sprintf(`
base_url: %s
thresholds:
  http_req_duration: ["p(95) < 500ms"]
scenarios:
  orders:
    rate: 1000
    duration: 10s
    pre_allocated_vus: 2
    max_vus: 2
    flow:
      - get: /
`, srv.URL))
	var out bytes.Buffer
	res, err := Capacity(context.Background(), CapacityConfig{Plan: p, ResultsDir: t.TempDir(), Out: &out,
		Search: capacity.Config{StartRate: 40, Factor: 2, Hold: 2 * time.Second, Budget: time.Minute}})
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if res.Result.Stop != capacity.GeneratorSaturated {
		t.Fatalf("stopped: %s, want generator saturated\n%s", res.Result.Stop, out.String())
	}
	if !strings.Contains(out.String(), "dropped") {
		t.Errorf("the outcome does not say the generator dropped iterations:\n%s", out.String())
	}
}

func TestCapacityRefusesClosedModelTests(t *testing.T) {
	p := parseTest(t, `
base_url: http://127.0.0.1:1
thresholds:
  http_req_duration: ["p(95) < 80ms"]
scenarios:
  users:
    vus: 5
    duration: 5s
    flow:
      - get: /
`)
	res, err := Capacity(context.Background(), CapacityConfig{Plan: p, ResultsDir: t.TempDir(), Out: &bytes.Buffer{},
		Search: capacity.Config{StartRate: 10, Hold: time.Second}})
	if err == nil || res.ExitCode != ExitBadInput || !strings.Contains(err.Error(), "arrival-rate") {
		t.Fatalf("err %v exit %d, want a refusal naming arrival-rate", err, res.ExitCode)
	}
}

func TestFirstFailureFindingsAreThoseOfTheFirstFailingStep(t *testing.T) {
	pool := diagnose.Finding{Kind: diagnose.KindPoolExhaustion, Title: "pool"}
	s := &stepRunner{findings: [][]diagnose.Finding{nil, {{Kind: diagnose.KindBimodalLatency}}, {pool}, {}}}
	res := capacity.Result{Steps: []capacity.Record{
		{StepResult: capacity.StepResult{Passed: true}}, {StepResult: capacity.StepResult{Passed: true}},
		{StepResult: capacity.StepResult{Passed: false}}, {StepResult: capacity.StepResult{Passed: false}},
	}}
	got := s.firstFailureFindings(res)
	if len(got) != 1 || got[0].Kind != diagnose.KindPoolExhaustion {
		t.Fatalf("got %v, want the third step's pool finding", got)
	}
}
