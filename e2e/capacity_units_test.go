package e2e

import (
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/capacity"
	"github.com/loadlens/loadlens/internal/units"
)

// TestCapacityAndEstimateOfTwoRequestsPerIteration is the search
// of a flow of two requests, through the binary: it printed offered
// 1,153/s beside done 2,306/s, and `estimate --rps 5000 --from-run` read
// the iterations as requests and asked for 5 instances where 3 suffice.
// The rates are checked against the target's own count: every request the
// steps say they sent reached it, half to each path, twice the iterations
// the schedule offered; estimate divides by the requests.
func TestCapacityAndEstimateOfTwoRequestsPerIteration(t *testing.T) {
	if testing.Short() {
		t.Skip("a capacity search of about eight 2-second steps")
	}
	var a, b atomic.Int64
	slots := make(chan struct{}, 2) // 2 workers of 20ms: 100 req/s, 50 iterations/s
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/a" {
			a.Add(1)
		} else {
			b.Add(1)
		}
		slots <- struct{}{}
		time.Sleep(20 * time.Millisecond) // the service time under test
		<-slots
		fmt.Fprint(w, "ok")
	}))
	defer srv.Close()
	dir := t.TempDir()
	test := filepath.Join(dir, "two.yaml")
	yaml := fmt.Sprintf("name: two\nbase_url: %s\ntimeout: 2s\nthresholds:\n  http_req_duration: [\"p(95) < 150ms\"]\n"+
		"  http_req_failed: [\"rate == 0\"]\nscenarios:\n  s:\n    model: arrival-rate\n    rate: 40\n    duration: 5s\n    max_vus: 200\n"+
		"    flow:\n      - get: /a\n      - get: /b\n", srv.URL)
	if err := os.WriteFile(test, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	const hold = 2 * time.Second
	r := loadlens(t, dir, "capacity", test, "--hold", hold.String(), "--budget", "24s", "--start", "10", "--factor", "2", "--results", "cap")
	out := r.stdout + r.stderr
	if strings.Contains(out, "host too busy") {
		t.Skipf("the host was too busy to judge a step:\n%s", out)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "cap", "*", "capacity.json"))
	if len(files) != 1 {
		t.Fatalf("capacity.json: %v\n%s", files, out)
	}
	var res struct {
		capacity.Result
		Units map[string]string
	}
	if raw, err := os.ReadFile(files[0]); err != nil || json.Unmarshal(raw, &res) != nil {
		t.Fatalf("capacity.json: %v", err)
	}
	if res.Highest == 0 || res.Config.RequestsPerIteration != 2 || res.HighestRequests > 2*res.Highest || res.HighestRequests < 0.9*2*res.Highest || // what the step completed, at most what it offered
		res.Units["Highest"] != "iterations/s" || res.Units["Steps.Throughput"] != "req/s" {
		t.Fatalf("highest %v iterations/s, %v req/s at %v requests per iteration, units %v\n%s",
			res.Highest, res.HighestRequests, res.Config.RequestsPerIteration, res.Units, out)
	}
	// The target's count: every request of every step, half of them to each path.
	var sent int64
	var offered float64 // iterations the schedule offered
	for _, s := range res.Steps {
		sent += s.Requests
		offered += s.Rate * hold.Seconds()
	}
	if got := a.Load() + b.Load(); sent != got || a.Load() != b.Load() {
		t.Errorf("the steps say %d requests; the target got %d (/a %d, /b %d)", sent, got, a.Load(), b.Load())
	}
	if ratio := float64(sent) / offered; math.Abs(ratio-2) > 0.05 {
		t.Errorf("%d requests for %.0f iterations offered: %.3f per iteration, want 2", sent, offered, ratio)
	}
	flat := strings.Join(strings.Fields(out), " ")
	headline := fmt.Sprintf("highest sustainable rate %s, %s", capacity.Iterations(res.Highest), units.Rate(res.HighestRequests, "req")) // what the step completed
	for _, want := range []string{"rates in iterations/s (2 requests each)", headline, "step iter/s req/s p95",
		"iter/s: iterations offered per second (2 requests each); req/s: requests completed per second of the hold"} {
		if !strings.Contains(flat, want) {
			t.Errorf("the output lacks %q:\n%s", want, out)
		}
	}
	columns(t, strings.ReplaceAll(out, dir, "."))
	estimateReadsRequests(t, dir, filepath.Dir(files[0]), res.Result)
	t.Logf("highest %s (%s); the target got %d requests in %d steps\n%s", capacity.Iterations(res.Highest),
		units.Rate(res.HighestRequests, "req"), sent, len(res.Steps), out)
}

// estimateReadsRequests plans 2.5 × what one instance of a search of two
// requests per iteration sustains, in req/s: 3 instances (5 if the
// iterations were read as requests).
func estimateReadsRequests(t *testing.T, dir, capDir string, res capacity.Result) {
	t.Helper()
	e := loadlens(t, dir, "estimate", "--rps", fmt.Sprint(2.5*res.HighestRequests), "--from-run", capDir)
	if e.code != 0 {
		t.Fatalf("estimate: exit %d\n%s%s", e.code, e.stdout, e.stderr)
	}
	est := strings.Join(strings.Fields(e.stdout), " ")
	from := fmt.Sprintf("%s × 2 requests = %s over 1 instance", capacity.Iterations(res.Highest), units.Rate(res.HighestRequests, "req"))
	if res.HighestRequests < 2*res.Highest {
		from = fmt.Sprintf("%s × 2 requests offered, %s completed over 1 instance", capacity.Iterations(res.Highest), units.Rate(res.HighestRequests, "req"))
	}
	want := []string{from, "= 3 instances"}
	if res.LowestFailing == 0 { // no step failed: the search's figure is a lower bound
		want = append(want, "at least", "instances, at most")
	}
	for _, w := range want {
		if !strings.Contains(est, w) {
			t.Errorf("estimate lacks %q:\n%s", w, e.stdout)
		}
	}
}
