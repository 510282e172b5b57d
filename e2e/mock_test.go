package e2e

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMockSlowsDownMidRun reproduces "the external server became slow at
// minute 3", in seconds: a test loads a mocked route and, from its second
// second, a scenario of one iteration tells the mock's admin API to fail
// every request. The run sees the failures, and the mock counted them.
func TestMockSlowsDownMidRun(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "mock.yaml"), []byte("listen: 127.0.0.1:0\nroutes:\n  - name: github-user\n    get: /users/{login}\n    json: {login: \"{{ login }}\"}\n"), 0o644)
	_, addr := startAwaiting(t, dir, "  http://", "mock", "mock.yaml")
	test := `name: mock-breaks
base_url: http://` + addr + `
scenarios:
  users:
    rate: 50
    duration: 3s
    flow: [get: /users/octocat]
  break-github:
    model: iterations
    iterations: 1
    start_time: 1s
    flow:
      - put: /__mock/routes/github-user
        json: {errors: {rate: 100%, status: 503}}
        check: [{status: 200}]
`
	os.WriteFile(filepath.Join(dir, "t.yaml"), []byte(test), 0o644)
	r := loadlens(t, dir, "run", "t.yaml", "--quiet", "--no-dashboard", "--results", "results", "--summary-json", "s.json")
	if r.code != 0 && r.code != 99 {
		t.Fatalf("run: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	reqs, _, fails := summaryCounts(t, filepath.Join(dir, "s.json"))
	if fails != 0 {
		t.Errorf("the admin change failed its check")
	}
	metrics := getText(t, "http://"+addr+"/__mock/metrics")
	if !strings.Contains(metrics, `mock_requests_total{route="github-user",status="503"}`) || !strings.Contains(metrics, `mock_requests_total{route="github-user",status="200"}`) {
		t.Errorf("the mock did not answer 200 then 503:\n%s", metrics)
	}
	if got := mockCounted(t, addr); got != reqs-1 { // the admin request is not a route's
		t.Errorf("the mock answered %v route requests, the run sent %v (one to the admin API)", got, reqs)
	}
	if !strings.Contains(r.stdout+r.stderr, "503") && !strings.Contains(r.stdout, "http_5xx") {
		t.Errorf("the run's summary does not show the 503s:\n%s", r.stdout)
	}
}

// getText returns the body of a GET.
func getText(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}
