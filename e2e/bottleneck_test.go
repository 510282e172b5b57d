package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// startShop serves the demo shop from the real binary on a free port and
// returns its URL; the shop stops when the test ends.
func startShop(t *testing.T, args ...string) string {
	t.Helper()
	_, url := startShopProcess(t, args...)
	return url
}

// startShopProcess is startShop that also returns the shop's process ID.
func startShopProcess(t *testing.T, args ...string) (pid int, url string) {
	t.Helper()
	run, url := startAwaiting(t, "", "demo shop listening on ", append([]string{"demo", "--serve", "--addr", "127.0.0.1:0"}, args...)...)
	return run.cmd.Process.Pid, url
}

// judgeFindings runs test against a fresh shop and hands the findings'
// kinds to check, which returns what is wrong with them; judgeOnQuietHost
// tries again while the host is busy.
func judgeFindings(t *testing.T, shopArgs []string, variant, test string, check func(map[string]bool) []string) {
	t.Helper()
	var shopPID int
	judgeOnQuietHost(t, func() []int { return []int{shopPID} }, func() ([]string, time.Duration) {
		var shop string
		shopPID, shop = startShopProcess(t, shopArgs...)
		kinds, cpu := runFindings(t, shop, variant, test)
		var problems []string
		for _, p := range check(kinds) {
			problems = append(problems, variant+": "+p)
		}
		return problems, cpu
	})
}

// runFindings runs a test against the shop with X-Variant set and returns
// the kinds of the findings in summary.json, and the CPU time the run took.
func runFindings(t *testing.T, shop, variant, test string) (map[string]bool, time.Duration) {
	t.Helper()
	dir := t.TempDir()
	body := strings.ReplaceAll(test, "SHOP", shop)
	path := writeTest(t, dir, "t.yaml", body)
	r := loadlens(t, dir, "run", path, "-e", "VARIANT="+variant, "--quiet", "--no-dashboard", "--results", "results",
		"--summary-json", "s.json")
	if r.code != 0 && r.code != 99 {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	b, err := os.ReadFile(filepath.Join(dir, "s.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Loadlens struct {
			Findings []struct {
				Kind     string `json:"kind"`
				Title    string `json:"title"`
				Evidence []any  `json:"evidence"`
			} `json:"findings"`
		} `json:"loadlens"`
	}
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	kinds := map[string]bool{}
	for _, f := range s.Loadlens.Findings {
		if len(f.Evidence) == 0 {
			t.Errorf("finding %q has no evidence", f.Title)
		}
		kinds[f.Kind] = true
	}
	t.Logf("%s findings: %v\n%s", variant, kinds, r.stdout)
	return kinds, r.cpu
}

const observeShop = `
base_url: SHOP
timeout: 10s
headers: {X-Variant: "{{ env.VARIANT }}"}
observe:
  interval: 1s
  targets:
    - {name: shop, url: SHOP/metrics, preset: go, labels: {role: app, cpu_limit: "1"}}
`

// TestDiagnosisFindsEachInjectedBottleneck runs each bottleneck the demo
// shop can inject, asserts the matching finding with evidence, and asserts
// that the improved variant under the same load has no finding of that kind.
func TestDiagnosisFindsEachInjectedBottleneck(t *testing.T) {
	cases := []struct {
		name     string
		shopArgs []string
		naive    string
		test     string
		want     []string
	}{
		{"transaction held across a slow cache: pool exhaustion and errors at a load level", nil, "naive-tx", observeShop + `
scenarios:
  coupons:
    model: arrival-rate
    start_rate: 50
    stages: [{duration: 6s, target: 600}, {duration: 6s, target: 600}]
    flow:
      - post: /coupons/issue
        json: {user: "u{{ randInt(1, 1000000) }}"}
`, []string{"pool-exhaustion", "errors-at-load"}},
		{"heavy GROUP BY per request: saturation and app CPU", nil, "naive", observeShop + `
scenarios:
  first_page:
    model: arrival-rate
    start_rate: 5
    stages: [{duration: 8s, target: 80}, {duration: 4s, target: 80}]
    flow:
      - get: /apps/first-page/GAME
`, []string{"saturation", "cpu-saturation"}},
		{"a global lock: more VUs, same throughput", nil, "naive-lock", observeShop + `
scenarios:
  coupons:
    model: vus
    start_vus: 5
    stages: [{duration: 10s, target: 40}, {duration: 3s, target: 40}]
    flow:
      - post: /coupons/issue
        json: {user: "u{{ randInt(1, 1000000) }}"}
`, []string{"more-vus-same-tps"}},
		{"a feed read that grows with the data: latency drift", []string{"--rows", "200"}, "naive", `
base_url: SHOP
timeout: 10s
headers: {X-Variant: "{{ env.VARIANT }}"}
scenarios:
  readers:
    rate: 20
    duration: 25s
    flow:
      - get: /feed
  writers:
    rate: 200
    duration: 25s
    flow:
      - post: /feed
        json: {text: "post {{ randString(20) }}"}
`, []string{"latency-drift"}},
		{"too few VUs for the rate: the generator is the bottleneck", nil, "naive", `
base_url: SHOP
headers: {X-Variant: "{{ env.VARIANT }}"}
scenarios:
  products:
    rate: 50
    duration: 8s
    pre_allocated_vus: 1
    max_vus: 1
    flow:
      - get: /products/{{ randInt(1, 1000) }}
      - think: 100ms
`, []string{"generator-bound"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			judgeFindings(t, c.shopArgs, c.naive, c.test, func(kinds map[string]bool) (problems []string) {
				for _, k := range c.want {
					if !kinds[k] {
						problems = append(problems, "no "+k+" finding")
					}
				}
				return problems
			})
			if c.want[0] == "generator-bound" {
				return // the generator's own limit has no healthy variant in the shop
			}
			judgeFindings(t, c.shopArgs, "improved", c.test, func(kinds map[string]bool) (problems []string) {
				for _, k := range c.want {
					if kinds[k] {
						problems = append(problems, "a false "+k+" finding")
					}
				}
				return problems
			})
		})
	}
}

// TestACheckCatchesOverIssuedCoupons is case study 5's correctness check:
// the racy decrement issues more coupons than the event has, and the test's
// check on the event's stats says so; the atomic decrement never does.
func TestACheckCatchesOverIssuedCoupons(t *testing.T) {
	test := `
base_url: SHOP
headers: {X-Variant: "{{ env.VARIANT }}"}
thresholds:
  'checks{check:"never more coupons than available"}': ["rate == 1"]
scenarios:
  event:
    model: iterations
    iterations: 1
    flow:
      - post: /coupons/reset?count=200
  rush:
    model: arrival-rate
    start_time: 1s
    rate: 300
    duration: 3s
    flow:
      - post: /coupons/issue
        json: {user: "u{{ randInt(1, 1000000) }}"}
  audit:
    model: arrival-rate
    start_time: 1s
    rate: 5
    duration: 4s
    flow:
      - get: /coupons/stats
        check:
          - name: never more coupons than available
            json: $.over_issued
            eq: 0
`
	cases := []struct {
		variant  string
		wantCode int
	}{{"naive-race", 99}, {"improved", 0}}
	for _, c := range cases {
		t.Run(c.variant, func(t *testing.T) {
			// Each its own shop, at the same time: the race waits between
			// its read and its write, and the check is on counts, not time.
			t.Parallel()
			shop := startShop(t)
			dir := t.TempDir()
			path := writeTest(t, dir, "t.yaml", strings.ReplaceAll(test, "SHOP", shop))
			r := loadlens(t, dir, "run", path, "-e", "VARIANT="+c.variant, "--quiet", "--no-dashboard", "--results", "results")
			if r.code != c.wantCode {
				t.Fatalf("%s: exit %d, want %d\n%s", c.variant, r.code, c.wantCode, r.stdout)
			}
		})
	}
}

func TestDemoSeedFillsADatabaseTheShopServes(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "shop.db")
	if r := loadlens(t, dir, "demo", "seed", "--rows", "5000", "--sqlite", db); r.code != 0 || !strings.Contains(r.stdout, "seeded 5000") {
		t.Fatalf("seed: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	shop := startShop(t, "--sqlite", db)
	test := writeTest(t, dir, "t.yaml", strings.ReplaceAll(`
base_url: SHOP
scenarios:
  read:
    model: iterations
    iterations: 1
    flow:
      - get: /feed
        headers: {X-Variant: improved}
        check:
          - json: $.posts[0].id
            eq: 5000
`, "SHOP", shop))
	if r := loadlens(t, dir, "run", test, "--quiet", "--no-dashboard", "--results", "results"); r.code != 0 || !strings.Contains(r.stdout, "100.00%") {
		t.Fatalf("the shop does not serve the seeded feed: exit %d\n%s", r.code, r.stdout)
	}
}
