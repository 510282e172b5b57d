package capacityrun

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/loadlens/loadlens/internal/app"
	"github.com/loadlens/loadlens/internal/threshold"

	"github.com/loadlens/loadlens/internal/capacity"
	"github.com/loadlens/loadlens/internal/diagnose"
	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/units"
)

// workerServer has k workers that each take s per request; past C = k/s
// requests queue, so its capacity is known by construction. It measures
// its own service times too: on a busy host a sleep of s takes longer, and
// the capacity the search should find is k over the service time served.
type workers struct {
	*httptest.Server
	k              int
	served, busyNs atomic.Int64
}

func workerServer(t *testing.T, k int, s time.Duration) *workers {
	w := &workers{k: k}
	slots := make(chan struct{}, k)
	w.Server = httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		select {
		case slots <- struct{}{}:
		case <-r.Context().Done():
			return
		}
		start := time.Now()
		time.Sleep(s) // the service time under test, not synchronisation
		w.busyNs.Add(int64(time.Since(start)))
		w.served.Add(1)
		<-slots
		rw.Write([]byte("ok"))
	}))
	t.Cleanup(w.Close)
	return w
}

// capacity is k over the mean service time the server measured.
func (w *workers) capacity() float64 {
	n := w.served.Load()
	if n == 0 {
		return 0
	}
	return float64(w.k) / (time.Duration(w.busyNs.Load() / n)).Seconds()
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
	srv := workerServer(t, 4, 50*time.Millisecond) // C = 80/s on a quiet host
	p := parseTest(t, fmt.Sprintf(`
base_url: %s
thresholds:
  http_req_duration: ["p(95) < 200ms"]
  http_req_failed: ["rate < 0.01"]
scenarios:
  orders:
    rate: 40
    duration: 10s
    flow:
      - get: /
`, srv.URL))
	var out bytes.Buffer
	dir := t.TempDir()
	// The scheduling lag limit follows the SLO (a quarter of 200ms): a step
	// a busy host disturbed is run again rather than judged.
	res, err := Capacity(context.Background(), CapacityConfig{Plan: p, ResultsDir: dir, Out: &out,
		Search: capacity.Config{StartRate: 20, Factor: 1.5, Hold: 3 * time.Second, Budget: 3 * time.Minute, Precision: 0.05, RetryPause: time.Second}})
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if res.Result.Stop == capacity.HostBusy {
		t.Skipf("the host was too busy to judge a step after its retries: %s\n%s", res.Result.StopDetail, out.String())
	}
	got, want := res.Result.Highest, srv.capacity()
	if got < 0.85*want || got > 1.15*want {
		t.Fatalf("highest sustainable rate %.1f/s, want %.1f/s ±15%% (4 workers over the %s service time the server measured)\n%s",
			got, want, time.Duration(float64(4*time.Second)/want), out.String())
	}
	if res.Result.Stop != capacity.Converged || res.ExitCode != app.ExitOK {
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
	progressRows := regexp.MustCompile(`(?m)^ +\d+ +[\d,.]+ `) // a run's number, then its offered rate
	if !strings.Contains(out.String(), "highest sustainable rate") || len(progressRows.FindAllString(out.String(), -1)) != len(res.Result.Steps) {
		t.Errorf("no outcome printed, or not one line per run of a step:\n%s", out.String())
	}
	t.Logf("found %.1f/s for %.1f/s in %d runs (%d retried)", got, want, len(res.Result.Steps), res.Result.Retries)
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
		Search: capacity.Config{StartRate: 40, Factor: 2, Hold: 2 * time.Second, Budget: time.Minute, RetryPause: time.Second}})
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if res.Result.Stop == capacity.HostBusy {
		t.Skipf("the host was too busy to judge a step after its retries: %s\n%s", res.Result.StopDetail, out.String())
	}
	if res.Result.Stop != capacity.GeneratorSaturated {
		t.Fatalf("stopped: %s, want generator saturated\n%s", res.Result.Stop, out.String())
	}
	if !strings.Contains(out.String(), "dropped") || !strings.Contains(out.String(), "raise max_vus") {
		t.Errorf("the outcome does not say the generator dropped iterations:\n%s", out.String())
	}
}

// TestCapacityProgressSaysWhenAStepIsRetried: each run of a step is one
// row under a header, its verdict beside or under it within units.Columns,
// and a run the host was too busy for says it is being run again.
func TestCapacityProgressSaysWhenAStepIsRetried(t *testing.T) {
	busy := "scheduling lag p99 180ms > 20.0ms"
	runs := []struct {
		rec  capacity.Record
		want string
	}{
		{capacity.Record{StepResult: capacity.StepResult{Rate: 100, Passed: true}, Attempt: 1, Judged: true}, "pass"},
		{capacity.Record{StepResult: capacity.StepResult{Rate: 150}, Attempt: 1, Busy: busy, Retried: true},
			"not judged: the host was busy (" + busy + "); running it again (try 2)"},
		{capacity.Record{StepResult: capacity.StepResult{Rate: 150}, Attempt: 2, Judged: true}, "FAIL"},
		{capacity.Record{StepResult: capacity.StepResult{Rate: 120, Passed: true}, Attempt: 1, Busy: busy, Judged: true}, "pass, on a busy host"},
		{capacity.Record{StepResult: capacity.StepResult{Rate: 300}, Attempt: 1, Busy: busy, Judged: true}, "FAIL, on a busy host but past the latency limit"},
		{capacity.Record{StepResult: capacity.StepResult{Rate: 420}, Attempt: 1, Busy: busy, Judged: true, Stands: "it answered 53 of the 4,200 requests with errors no late arrival of the generator explains"},
			"FAIL, the target's: it answered 53 of the 4,200 requests with errors no late arrival of the generator explains; the host was busy too (" + busy + ")"},
		{capacity.Record{StepResult: capacity.StepResult{Rate: 310}, Attempt: 1, Busy: busy, Judged: true, Stands: "its mean latency 612ms less twice the lag p99 (180ms) is 252ms, past the latency limit of 100ms"},
			"FAIL, the target's: its mean latency 612ms less twice the lag p99 (180ms) is 252ms, past the latency limit of 100ms; the host was busy too (" + busy + ")"},
		{capacity.Record{StepResult: capacity.StepResult{Rate: 130}, Attempt: 3, Busy: busy}, "not judged: the host was busy (" + busy + "); no retries left"},
	}
	var out bytes.Buffer
	line := progressLine(&out, units.Requests)
	for _, r := range runs {
		line(r.rec)
	}
	// A header, then each run's row of figures, its verdict beside it or,
	// when too long for the line, under it.
	lines := strings.Split(strings.TrimRight(out.String(), "\n"), "\n")
	if len(lines) == 0 || !strings.Contains(lines[0], "iter/s") || !strings.Contains(lines[0], "req/s") {
		t.Fatalf("no header:\n%s", out.String())
	}
	var entries []string
	for _, l := range lines[1:] {
		if n := utf8.RuneCountInString(l); n > units.Columns {
			t.Errorf("line of %d columns: %q", n, l)
		}
		if strings.HasPrefix(l, "        ") && len(entries) > 0 { // a verdict's lines
			entries[len(entries)-1] += " " + strings.TrimSpace(l)
			continue
		}
		entries = append(entries, l)
	}
	if len(entries) != len(runs) {
		t.Fatalf("%d entries for %d runs:\n%s", len(entries), len(runs), out.String())
	}
	for i, r := range runs {
		if !strings.HasPrefix(strings.TrimSpace(entries[i]), fmt.Sprintf("%d ", i+1)) || !strings.Contains(entries[i], r.want) {
			t.Errorf("run %d: %q, want %q", i+1, entries[i], r.want)
		}
	}
}

func TestLatencyLimitIsTheTightestDurationThreshold(t *testing.T) {
	p := parseTest(t, `
base_url: http://127.0.0.1:1
thresholds:
  http_req_duration: ["p(95) < 800ms", "p(99) < 300ms", "avg > 1ms"]
  http_req_failed: ["rate < 0.01"]
scenarios:
  s:
    rate: 1
    duration: 1s
    flow:
      - get: /
`)
	if got := threshold.LatencyLimit(p.Thresholds); got != 300*time.Millisecond {
		t.Fatalf("latency limit %v, want 300ms", got)
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
	if err == nil || res.ExitCode != app.ExitBadInput || !strings.Contains(err.Error(), "arrival-rate") {
		t.Fatalf("err %v exit %d, want a refusal naming arrival-rate", err, res.ExitCode)
	}
}

func TestFirstFailureFindingsAreThoseOfTheFirstFailingStep(t *testing.T) {
	pool := diagnose.Finding{Kind: diagnose.KindPoolExhaustion, Parts: diagnose.Words("pool")}
	s := &stepRunner{findings: [][]diagnose.Finding{nil, {{Kind: diagnose.KindBimodalLatency}}, {{Kind: diagnose.KindLatencyDrift}}, {pool}, {}}}
	res := capacity.Result{Steps: []capacity.Record{
		{StepResult: capacity.StepResult{Passed: true}, Judged: true}, {StepResult: capacity.StepResult{Passed: true}, Judged: true},
		{StepResult: capacity.StepResult{Passed: false}, Retried: true, Busy: "scheduling lag p99 300ms > 100ms"}, // the host's doing
		{StepResult: capacity.StepResult{Passed: false}, Judged: true}, {StepResult: capacity.StepResult{Passed: false}, Judged: true},
	}}
	got := s.firstFailureFindings(res)
	if len(got) != 1 || got[0].Kind != diagnose.KindPoolExhaustion {
		t.Fatalf("got %v, want the fourth run's pool finding (the third was retried)", got)
	}
}

// TestHoldThroughputCountsOnlyTheHold: an overloaded step's requests still
// in flight when the hold ends complete afterwards; they are not throughput.
func TestHoldThroughputCountsOnlyTheHold(t *testing.T) {
	secs := []metrics.Second{{Sec: 0, Requests: 160}, {Sec: 1, Requests: 160}, {Sec: 2, Requests: 160}, {Sec: 3, Requests: 128}}
	tests := []struct {
		name  string
		secs  []metrics.Second
		total int64
		hold  time.Duration
		want  float64
	}{
		{"the drain is left out", secs, 608, 3 * time.Second, 160},
		{"no seconds recorded", nil, 300, 3 * time.Second, 100},
		{"a hold under a second", secs[:1], 80, 500 * time.Millisecond, 160},
	}
	for _, tc := range tests {
		if got := holdThroughput(tc.secs, tc.total, tc.hold); math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("%s: %v/s, want %v/s", tc.name, got, tc.want)
		}
	}
}
