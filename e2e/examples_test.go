package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// exampleRun is how one file of examples/ runs in CI against the demo
// shop: the -e settings that shorten it, and the one threshold it is meant
// to fail ("" when it must pass them all).
type exampleRun struct {
	file  string
	env   []string
	fails string
}

// exampleRuns lists every example, in the order they run against one shop:
// smoke first, on the fresh shop it was reported to fail on. A file in
// examples/ missing here fails the test.
var exampleRuns = []exampleRun{
	{"smoke.yaml", nil, ""},
	{"first-page.yaml", []string{"RAMP=1s", "HOLD=3s"}, ""},
	{"login-flow.yaml", []string{"RAMP=1s", "HOLD=3s"}, ""},
	{"read-write.yaml", []string{"DURATION=4s", "RAMP=1s", "HOLD=3s"}, ""},
	{"coupon-event.yaml", []string{"DURATION=4s"}, `checks{check:"never more coupons than the event has"}`},
	{"coupon-event.yaml", []string{"DURATION=4s", "VARIANT=improved"}, ""}, // the fix passes: the failure above is the bug's
}

// TestExamplesAgainstTheDemoShop runs every example against `loadlens demo
// --serve` and checks its exit code and which thresholds failed: each
// passes, or fails exactly the threshold its opening comment names.
func TestExamplesAgainstTheDemoShop(t *testing.T) {
	files, _ := filepath.Glob("../examples/*.yaml")
	if len(files) < 5 {
		t.Fatalf("found %d examples, want at least 5", len(files))
	}
	for _, f := range files {
		if !slices.ContainsFunc(exampleRuns, func(r exampleRun) bool { return r.file == filepath.Base(f) }) {
			t.Errorf("examples/%s is not run against the demo shop: add it to exampleRuns", filepath.Base(f))
		}
	}
	shopPID, shop := startShopProcess(t)
	began := time.Now()
	for _, ex := range exampleRuns {
		name := strings.TrimSuffix(ex.file, ".yaml")
		if len(ex.env) > 0 {
			name += " " + strings.Join(ex.env, " ")
		}
		t.Run(name, func(t *testing.T) {
			path, err := filepath.Abs(filepath.Join("../examples", ex.file))
			if err != nil {
				t.Fatal(err)
			}
			head := openingComment(t, path)
			if ex.fails != "" && !strings.Contains(head, "fails exactly") {
				t.Errorf("the opening comment of %s does not say which threshold it fails:\n%s", ex.file, head)
			}
			if ex.fails == "" && !strings.Contains(head, "passes") {
				t.Errorf("the opening comment of %s does not say that it passes against the demo shop:\n%s", ex.file, head)
			}
			wantFailed := []string{}
			if ex.fails != "" {
				wantFailed = []string{ex.fails}
				if !strings.Contains(head, ex.fails) {
					t.Errorf("the opening comment of %s does not name %s", ex.file, ex.fails)
				}
			}
			// thresholds on latency are judged on a quiet host: see judgeOnQuietHost
			judgeOnQuietHost(t, func() []int { return []int{shopPID} }, func() (problems []string, cpu time.Duration) {
				dir := t.TempDir()
				args := []string{"run", path, "-e", "BASE_URL=" + shop, "--quiet", "--no-dashboard", "--results", "results", "--summary-json", "s.json"}
				for _, kv := range ex.env {
					args = append(args, "-e", kv)
				}
				start := time.Now()
				r := loadlens(t, dir, args...)
				t.Logf("%s ran in %v", name, time.Since(start).Round(100*time.Millisecond))
				want := 0
				if ex.fails != "" {
					want = 99
				}
				failed := failedThresholds(t, filepath.Join(dir, "s.json"))
				if r.code != want {
					problems = append(problems, fmt.Sprintf("exit %d, want %d; failed thresholds %v\n%s%s", r.code, want, failed, r.stdout, r.stderr))
				}
				if !slices.Equal(failed, wantFailed) {
					problems = append(problems, fmt.Sprintf("failed thresholds %q, want %q\n%s", failed, wantFailed, r.stdout))
				}
				return problems, r.cpu
			})
		})
	}
	t.Logf("all examples ran in %v", time.Since(began).Round(100*time.Millisecond))
}

// openingComment returns the comment lines at the top of a test file,
// with the comment markers removed and the lines joined by spaces.
func openingComment(t *testing.T, path string) string {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var words []string
	for _, line := range strings.Split(string(src), "\n") {
		rest, ok := strings.CutPrefix(line, "#")
		if !ok {
			break
		}
		words = append(words, strings.Fields(rest)...)
	}
	return strings.Join(words, " ")
}

// failedThresholds returns the keys of the thresholds summary.json says failed.
func failedThresholds(t *testing.T, path string) []string {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("summary.json: %v", err)
	}
	var s struct {
		Loadlens struct {
			Thresholds []struct {
				Metric string `json:"metric"`
				Pass   bool   `json:"pass"`
			} `json:"thresholds"`
		} `json:"loadlens"`
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatal(err)
	}
	if len(s.Loadlens.Thresholds) == 0 {
		t.Errorf("%s lists no thresholds", path)
	}
	out := []string{}
	for _, th := range s.Loadlens.Thresholds {
		if !th.Pass && !slices.Contains(out, th.Metric) {
			out = append(out, th.Metric)
		}
	}
	return out
}
