package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/faultserver"
)

// resendSummary is what summary.json says of a run's requests.
type resendSummary struct {
	Metrics  map[string]map[string]any `json:"metrics"`
	Loadlens struct {
		FailuresByKind map[string]float64 `json:"failures_by_kind"`
	} `json:"loadlens"`
}

// runAgainst runs the binary at rate against url for 3s and returns
// summary.json's request count and failures by kind.
func runAgainst(t *testing.T, url string, rate string, more ...string) (requests float64, failures map[string]float64) {
	t.Helper()
	dir := t.TempDir()
	args := append([]string{"run", url, "--rate", rate, "--duration", "3s", "--results", "results", "--quiet", "--no-dashboard",
		"--summary-json", "s.json"}, more...)
	r, _ := runIn(t, dir, 90*time.Second, append([]string{binary}, args...)...)
	if r.code != 0 {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	b, err := os.ReadFile(filepath.Join(dir, "s.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s resendSummary
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	requests, _ = s.Metrics["http_reqs"]["count"].(float64)
	return requests, s.Loadlens.FailuresByKind
}

// TestATargetsResetsAreItsFailures is issue 20's reset server: it reads
// each request whole and answers every fifth with a reset. summary.json's
// requests (completed and failed) are the requests the server read, and
// its failures the server's resets, each a conn_reset: no request was sent
// twice and counted once.
func TestATargetsResetsAreItsFailures(t *testing.T) {
	srv := faultserver.Start(t, faultserver.ResetSome, faultserver.Options{ResetEvery: 5})
	requests, failures := runAgainst(t, srv.URL+"/x", "200")
	var failed float64
	for _, n := range failures {
		failed += n
	}
	if requests == 0 || int64(requests) != srv.Requests() {
		t.Errorf("summary.json counts %v requests; the server read %d", requests, srv.Requests())
	}
	if int64(failed) != srv.Resets() || failures["conn_reset"] != failed {
		t.Errorf("summary.json counts failures %v; the server reset %d requests", failures, srv.Resets())
	}
	t.Logf("%v requests, %v failed (%.1f %%); the server read %d and reset %d", requests, failed, 100*failed/requests,
		srv.Requests(), srv.Resets())
}

// TestAKeepAliveTimeoutIsNoFailure: a server that closes connections idle
// for 30ms, at 10 requests a second from one VU. Every request finds its
// connection closed by the server and goes out on a new one: none fails,
// and the server reads each once.
func TestAKeepAliveTimeoutIsNoFailure(t *testing.T) {
	srv := faultserver.Start(t, faultserver.IdleClose, faultserver.Options{Idle: 30 * time.Millisecond})
	requests, failures := runAgainst(t, srv.URL+"/x", "10", "--max-vus", "1")
	if len(failures) != 0 || requests == 0 || int64(requests) != srv.Requests() {
		t.Errorf("summary.json counts %v requests, failures %v; the server read %d", requests, failures, srv.Requests())
	}
	if srv.Conns() != srv.Requests() {
		t.Errorf("%d connections for %d requests: the server's idle close did not happen between requests", srv.Conns(), srv.Requests())
	}
}
