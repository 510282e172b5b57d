package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestJourneyWithControlFlow runs a journey written with groups, a loop
// over a response's items and a branch on an extracted value through the
// real binary: the target receives exactly the requests the answers call
// for, and a group_duration threshold gates the run.
func TestJourneyWithControlFlow(t *testing.T) {
	var items, checkouts, empties atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/items":
			fmt.Fprint(w, `{"items": [{"id": 1}, {"id": 2}, {"id": 3}, {"id": 4}]}`)
		case strings.HasPrefix(r.URL.Path, "/items/"):
			items.Add(1)
			time.Sleep(20 * time.Millisecond) // the target's own work: what the group's duration measures
		case r.URL.Path == "/cart":
			fmt.Fprint(w, `{"size": 1}`)
		case r.URL.Path == "/checkout":
			checkouts.Add(1)
		default:
			empties.Add(1)
		}
	}))
	defer srv.Close()
	dir := t.TempDir()
	test := `name: journey
base_url: %s
scenarios:
  shop:
    iterations: 4
    vus: 2
    flow:
      - get: /items
        extract: {items: {json: $.items}}
      - group: browse
        steps:
          - for_each: items
            as: id
            path: $.id
            max: 2
            steps: [{get: "/items/{{ id }}", name: '/items/{id}'}]
      - get: /cart
        extract: {size: {json: $.size}}
      - if: {var: size, gt: 0}
        then: [post: /checkout]
        else: [get: /empty]
thresholds:
  'group_duration{group:::browse}': ["%s"]
`
	for _, tc := range []struct {
		expr string
		code int
	}{{"p(95)<10s", 0}, {"max<5ms", 99}} {
		items.Store(0)
		checkouts.Store(0)
		empties.Store(0)
		os.WriteFile(filepath.Join(dir, "t.yaml"), []byte(fmt.Sprintf(test, srv.URL, tc.expr)), 0o644)
		res := loadlens(t, dir, "run", "t.yaml", "--quiet", "--results", "results-"+fmt.Sprint(tc.code))
		if res.code != tc.code {
			t.Fatalf("group_duration %s: exit %d, want %d\n%s%s", tc.expr, res.code, tc.code, res.stdout, res.stderr)
		}
		if items.Load() != 8 || checkouts.Load() != 4 || empties.Load() != 0 {
			t.Errorf("the target got %d item requests, %d checkouts, %d others; want 8, 4, 0", items.Load(), checkouts.Load(), empties.Load())
		}
		b, err := os.ReadFile(filepath.Join(onlyRunDir(t, filepath.Join(dir, "results-"+fmt.Sprint(tc.code))), "summary.json"))
		if err != nil {
			t.Fatal(err)
		}
		var sum struct {
			Metrics map[string]map[string]any `json:"metrics"`
		}
		if err := json.Unmarshal(b, &sum); err != nil {
			t.Fatal(err)
		}
		if gd := sum.Metrics["group_duration"]; gd == nil || gd["count"] != float64(4) {
			t.Errorf("summary.json's group_duration %v, want 4 runs of the group", gd)
		}
	}
}

// TestSetupThroughTheBinary: a setup's token reaches every VU's requests
// and the teardown; a setup that fails stops the run before any load,
// exit 1, naming the request.
func TestSetupThroughTheBinary(t *testing.T) {
	var work, deleted, logins atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/login" && r.URL.Query().Get("fail") != "":
			w.WriteHeader(http.StatusUnauthorized)
		case r.URL.Path == "/login":
			logins.Add(1)
			fmt.Fprint(w, `{"token": "abc"}`)
		case r.URL.Path == "/work/abc":
			work.Add(1)
		case r.Method == http.MethodDelete && r.URL.Path == "/sessions/abc":
			deleted.Add(1)
		}
	}))
	defer srv.Close()
	dir := t.TempDir()
	test := "name: setup\nbase_url: %s\nsetup:\n  - post: /login%s\n    extract: {token: {json: $.token}}\n" +
		"scenarios:\n  s: {iterations: 6, vus: 3, flow: [get: \"/work/{{ token }}\"]}\n" +
		"teardown:\n  - delete: \"/sessions/{{ token }}\"\n"
	os.WriteFile(filepath.Join(dir, "t.yaml"), []byte(fmt.Sprintf(test, srv.URL, "")), 0o644)
	if res := loadlens(t, dir, "run", "t.yaml", "--quiet"); res.code != 0 {
		t.Fatalf("exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	if logins.Load() != 1 || work.Load() != 6 || deleted.Load() != 1 {
		t.Errorf("%d logins, %d requests with the token, %d deletes; want 1, 6, 1", logins.Load(), work.Load(), deleted.Load())
	}
	os.WriteFile(filepath.Join(dir, "t.yaml"), []byte(fmt.Sprintf(test, srv.URL, "?fail=1")), 0o644)
	res := loadlens(t, dir, "run", "t.yaml", "--quiet")
	want := "setup: POST " + srv.URL + "/login?fail=1: a request failed (http_4xx): 401 Unauthorized (after 1 request in "
	if res.code != 1 || !strings.Contains(res.stderr, want) {
		t.Errorf("a failed setup: exit %d, stderr %q; want 1 and %q", res.code, res.stderr, want)
	}
	if work.Load() != 6 {
		t.Errorf("a failed setup sent load: %d requests", work.Load()-6)
	}
}

// TestK6CommandLine: k6's -u, -d and -i in URL mode, and `run -` reading
// the test from standard input.
func TestK6CommandLine(t *testing.T) {
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { n.Add(1) }))
	defer srv.Close()
	dir := t.TempDir()
	if res := loadlens(t, dir, "run", "-u", "2", "-i", "7", srv.URL+"/x", "--quiet"); res.code != 0 || n.Load() != 7 {
		t.Errorf("-u 2 -i 7: exit %d, %d requests; want 0 and 7\n%s%s", res.code, n.Load(), res.stdout, res.stderr)
	}
	if res := loadlens(t, dir, "run", "-i", "3", "--rate", "5", srv.URL+"/x"); res.code != 2 || !strings.Contains(res.stderr, "does not go with --rate") {
		t.Errorf("-i with --rate: exit %d, %s", res.code, res.stderr)
	}
	n.Store(0)
	test := fmt.Sprintf("name: piped\nbase_url: %s\nscenarios:\n  s: {iterations: 4, flow: [get: /y]}\n", srv.URL)
	for _, args := range [][]string{{"run", "--quiet", "-"}, {"run", "-", "--quiet"}} {
		cmd := exec.Command(binary, args...)
		cmd.Dir, cmd.Stdin = dir, strings.NewReader(test)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Errorf("%v: %v\n%s", args, err, out)
		}
	}
	if n.Load() != 8 {
		t.Errorf("the piped test sent %d requests, want 4 per run", n.Load())
	}
	cmd := exec.Command(binary, "run", "-")
	cmd.Dir, cmd.Stdin = dir, strings.NewReader("scenarios:\n  s: {iterations: 1, flow: [get: /y]}\n")
	out, _ := cmd.CombinedOutput()
	if !strings.Contains(string(out), `stdin:2:34: scenarios.s.flow[0].get: relative path "/y" needs base_url`) {
		t.Errorf("an error in a piped test does not name stdin:\n%s", out)
	}
}
