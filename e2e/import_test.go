package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// importSamples are the real-world samples each import is tested on.
var importSamples = []struct {
	kind, source string
	want         string // in the imported test
}{
	{"openapi", "petstore-v3.yaml", "name: '/pet/{petId}'"},
	{"openapi", "petstore-v31.yaml", "OpenAPI 3.1.0"},
	{"openapi", "petstore-v3.json", "get: /pets"},
	{"openapi", "petstore-swagger2.yaml", "Swagger 2.0"},
	{"openapi", "petstore-expanded-swagger2.json", "delete: /pets/1"},
	{"har", "demo-shop.har", "Authorization: 'Bearer {{ token }}'"},
	{"curl", "chrome-bash.txt", `"password\":\"won't tell\"`},
	{"curl", "chrome-cmd.txt", `50% off & more`},
	{"curl", "firefox-posix.txt", "post: /login"},
	{"curl", "ticket.txt", `{{ env("API_TOKEN", "") }}`},
	{"k6", "stages.js", "start_vus: 1"},
	{"k6", "scenarios.js", "model: arrival-rate"},
	{"k6", "api-crud.js", "Bearer {{ access }}"},
}

// sample is the path of an import sample under internal/importer/testdata.
func sample(t *testing.T, kind, name string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("../internal/importer/testdata", kind, name))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestImportSamplesValidate imports every sample with the binary and
// validates what it wrote, as a user would.
func TestImportSamplesValidate(t *testing.T) {
	for _, s := range importSamples {
		t.Run(s.kind+"/"+s.source, func(t *testing.T) {
			dir := t.TempDir()
			r := loadlens(t, dir, "import", s.kind, sample(t, s.kind, s.source), "--out", "test.yaml")
			if r.code != 0 || !strings.Contains(r.stdout, "test.yaml:") {
				t.Fatalf("import: exit %d\n%s%s", r.code, r.stdout, r.stderr)
			}
			if !strings.Contains(r.stdout, "check it with: loadlens validate test.yaml\n") {
				t.Errorf("the command to check the test is not whole on its line:\n%s", r.stdout)
			}
			for i, line := range strings.Split(r.stdout+r.stderr, "\n") {
				if n := utf8.RuneCountInString(line); n > 100 {
					t.Errorf("line %d is %d columns: %q", i+1, n, line)
				}
			}
			text, _ := os.ReadFile(filepath.Join(dir, "test.yaml"))
			if !strings.Contains(string(text), s.want) {
				t.Errorf("the imported test lacks %q:\n%s", s.want, text)
			}
			if v := loadlens(t, dir, "validate", "test.yaml"); v.code != 0 || !strings.Contains(v.stdout, "ok") {
				t.Errorf("validate: exit %d\n%s%s", v.code, v.stdout, v.stderr)
			}
		})
	}
}

func TestImportBadInput(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "x.har"), []byte("not json"), 0o644)
	for _, args := range [][]string{
		{"import", "har", "x.har"},
		{"import", "curl", "echo hi"},
		{"import", "nope", "x"},
		{"import", "openapi", "missing.yaml"},
	} {
		if r := loadlens(t, dir, args...); r.code != 2 || r.stderr == "" {
			t.Errorf("%v: exit %d, want 2 with a message\n%s", args, r.code, r.stderr)
		}
	}
}

// summaryCounts reads the requests and checks of a run's summary.json.
func summaryCounts(t *testing.T, path string) (reqs, passes, fails float64) {
	t.Helper()
	var s struct {
		Metrics struct {
			HTTPReqs struct{ Count float64 } `json:"http_reqs"`
			Checks   struct{ Passes, Fails float64 }
		}
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	return s.Metrics.HTTPReqs.Count, s.Metrics.Checks.Passes, s.Metrics.Checks.Fails
}

// mockCounted sums what the mock at addr says it answered.
func mockCounted(t *testing.T, addr string) float64 {
	t.Helper()
	resp, err := http.Get("http://" + addr + "/__mock/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	total := 0.0
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "mock_requests_total{") || strings.HasPrefix(line, "mock_unmatched_requests_total ") {
			var v float64
			fmt.Sscan(line[strings.LastIndexByte(line, ' ')+1:], &v)
			total += v
		}
	}
	return total
}

// TestImportedOpenAPIRunsAgainstMock imports the Petstore v3 spec and runs
// the test briefly against the Petstore served by loadlens mock: every
// documented status is met, and the mock counted every request sent.
func TestImportedOpenAPIRunsAgainstMock(t *testing.T) {
	dir := t.TempDir()
	_, addr := startAwaiting(t, dir, "  http://", "mock", filepath.Join(mustAbs(t, "testdata/import"), "petstore-mock.yaml"))
	if r := loadlens(t, dir, "import", "openapi", sample(t, "openapi", "petstore-v3.yaml"), "--out", "petstore.yaml", "--vus", "2"); r.code != 0 {
		t.Fatalf("import: %d\n%s", r.code, r.stderr)
	}
	r := loadlens(t, dir, "run", "petstore.yaml", "-e", "BASE_URL=http://"+addr, "-e", "DURATION=2s", "-e", "TOKEN=t", "-e", "API_KEY=k",
		"--quiet", "--no-dashboard", "--results", "results", "--summary-json", "s.json")
	if r.code != 0 {
		t.Fatalf("run: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	reqs, passes, fails := summaryCounts(t, filepath.Join(dir, "s.json"))
	if reqs < 19 || passes == 0 || fails != 0 {
		t.Errorf("requests %v (want at least one iteration of 19), checks %v passed %v failed", reqs, passes, fails)
	}
	if got := mockCounted(t, addr); got != reqs {
		t.Errorf("the mock answered %v requests, the run counted %v", got, reqs)
	}
}

// TestImportedHARRunsAgainstDemoShop imports the session headless Chromium
// recorded on the demo shop and replays it: the login's token is extracted
// and used, the product id comes from the first page, and every recorded
// status is met.
func TestImportedHARRunsAgainstDemoShop(t *testing.T) {
	dir := t.TempDir()
	shop := startShop(t)
	if r := loadlens(t, dir, "import", "har", sample(t, "har", "demo-shop.har"), "--out", "session.yaml", "--max-think", "200ms"); r.code != 0 {
		t.Fatalf("import: %d\n%s", r.code, r.stderr)
	}
	r := loadlens(t, dir, "run", "session.yaml", "-e", "BASE_URL="+shop, "-e", "DURATION=2s",
		"--quiet", "--no-dashboard", "--results", "results", "--summary-json", "s.json")
	if r.code != 0 {
		t.Fatalf("run: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	reqs, passes, fails := summaryCounts(t, filepath.Join(dir, "s.json"))
	if reqs < 8 || fails != 0 || passes < reqs {
		t.Errorf("requests %v (want at least one session of 8), checks %v passed %v failed (want every status and extraction met)", reqs, passes, fails)
	}
}

func mustAbs(t *testing.T, p string) string {
	t.Helper()
	a, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return a
}
