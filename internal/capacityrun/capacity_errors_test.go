package capacityrun

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/loadlens/loadlens/internal/app"
	"github.com/loadlens/loadlens/internal/threshold"

	"github.com/loadlens/loadlens/internal/capacity"
)

// TestCapacityOfATargetAnsweringOnlyErrors is the outside trial's all-503
// target under a counter-only SLO: every step passed, the search said "at
// least 2,560/s" and fitted a USL, exit 0. The first step fails on the
// error budget, the search says the target failed there, fits nothing,
// and exits with the threshold-failure code.
func TestCapacityOfATargetAnsweringOnlyErrors(t *testing.T) {
	var got atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got.Add(1)
		w.WriteHeader(http.StatusServiceUnavailable)
	}))
	defer srv.Close()
	p := parseTest(t, fmt.Sprintf(`
base_url: %s
thresholds:
  http_reqs: ["count > 10"]
  iterations: ["rate > 5"]
scenarios:
  s:
    rate: 50
    duration: 5s
    flow:
      - get: /x
`, srv.URL))
	var out bytes.Buffer
	res, err := Capacity(context.Background(), CapacityConfig{Plan: p, ResultsDir: t.TempDir(), Out: &out,
		Search: capacity.Config{StartRate: 20, Factor: 2, Hold: 2 * time.Second, Budget: 16 * time.Second, RetryPause: time.Second}})
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	r := res.Result
	if r.Stop == capacity.HostBusy {
		t.Skipf("the host was too busy to judge a step: %s", r.StopDetail)
	}
	judged := r.Steps[len(r.Steps)-1]
	if r.Stop != capacity.TargetFailed || r.Highest != 0 || r.USL != nil || r.Knee != nil || res.ExitCode != app.ExitThresholdFailed {
		t.Fatalf("stop %q, highest %v, fit %v, knee %v, exit %d; want target failed, none, no fit, exit %d\n%s",
			r.Stop, r.Highest, r.USL, r.Knee, res.ExitCode, app.ExitThresholdFailed, out.String())
	}
	// The server's own count is what the step says was sent.
	if judged.Requests == 0 || judged.Requests > got.Load() {
		t.Errorf("the step sent %d requests, the server received %d", judged.Requests, got.Load())
	}
	text := strings.Join(strings.Fields(out.String()), " ")
	for _, want := range []string{"highest sustainable rate none: every request failed at the first step (20 iterations/s)",
		"failed first at 20 iterations/s: error budget: errors <= 1% (every request failed,",
		"stopped target failed: every request failed at the first step (20 iterations/s,"} {
		if !strings.Contains(text, want) {
			t.Errorf("the output lacks %q:\n%s", want, out.String())
		}
	}
	for i, l := range strings.Split(out.String(), "\n") {
		if n := utf8.RuneCountInString(l); n > 100 && !strings.Contains(l, "capacity.html") { // the test's own temp path
			t.Errorf("line %d is %d columns: %s", i+1, n, l)
		}
	}
}

func TestErrorBudgetIsTheSLOs(t *testing.T) {
	for _, tc := range []struct {
		thresholds string
		want       float64
	}{
		{`http_reqs: ["count > 10"]`, 0}, // none: the search's 1 %
		{`http_req_failed: ["rate < 0.05"]`, 0.05},
		{`http_req_failed: ["rate < 0.05", "rate <= 0.02"]`, 0.02},
		{`http_req_failed: ["rate == 0"]`, 1e-9}, // none may fail
		{`http_req_failed: ["rate <= 0"]`, 1e-9},
		{`"http_req_failed{endpoint:GET /x}": ["rate < 0.5"]`, 0}, // one endpoint's is not the step's
	} {
		t.Run(tc.thresholds, func(t *testing.T) {
			p := parseTest(t, "base_url: http://127.0.0.1:1\nthresholds:\n  "+tc.thresholds+"\nscenarios:\n  s:\n    rate: 1\n    duration: 1s\n    flow:\n      - get: /x\n")
			if got := threshold.ErrorBudget(p.Thresholds); got != tc.want {
				t.Fatalf("error budget %v, want %v", got, tc.want)
			}
		})
	}
}
