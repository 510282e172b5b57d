package e2e

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/units"
)

// failingTarget answers /fail with 500 and /ok with 200, counting each.
func failingTarget(t *testing.T) (url string, fails, oks *atomic.Int64) {
	t.Helper()
	fails, oks = new(atomic.Int64), new(atomic.Int64)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/fail":
			fails.Add(1)
			http.Error(w, "broken", http.StatusInternalServerError)
		case "/ok":
			oks.Add(1)
			w.Write([]byte("ok"))
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL, fails, oks
}

// screenshotAt saves the whole page, width px wide, under e2e/artifacts/.
func screenshotAt(b *browser, name string, width int) {
	b.t.Helper()
	var height int
	b.eval(`return Math.ceil(document.documentElement.scrollHeight)`, &height)
	// the window is taller than the page it shows by the browser's own frame
	b.call("POST", b.path("/window/rect"), map[string]int{"width": width, "height": min(max(height+160, 800), 6000)}, nil)
	var shot string
	b.call("GET", b.path("/screenshot"), nil, &shot)
	png, err := base64.StdEncoding.DecodeString(shot)
	if err != nil {
		b.t.Fatal(err)
	}
	dir, _ := filepath.Abs("artifacts")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, png, 0o644); err != nil {
		b.t.Fatal(err)
	}
	b.t.Logf("screenshot: %s", path)
}

// cardState is one headline card of the dashboard as the browser shows it.
type cardState struct {
	Scope string `json:"scope"`
	Value string `json:"value"`
	Sub   string `json:"sub"`
}

func cards(b *browser) map[string]cardState {
	out := map[string]cardState{}
	b.eval(`var o = {}; document.querySelectorAll("#headline .card").forEach(function (c) {
		o[c.id.replace("card-", "")] = {scope: c.querySelector(".scope").textContent,
			value: c.querySelector(".value").textContent, sub: c.querySelector(".sub").textContent}; }); return o`, &out)
	return out
}

// tableRows returns the text of each cell of the rows of a table's body
// (and foot), keyed by the first cell.
func tableRows(b *browser, selector string) map[string][]string {
	out := map[string][]string{}
	b.eval(fmt.Sprintf(`var o = {}; document.querySelectorAll(%q).forEach(function (tr) {
		var c = Array.from(tr.cells).map(function (td) { return td.textContent; }); o[c[0]] = c.slice(1); }); return o`, selector), &out)
	return out
}

// TestDashboardShowsTheWholeRunAfterTheEnd runs a test that fails most of
// its requests early (a burst against /fail) and ends with seconds of
// successes (/ok): once the run has ended, the dashboard's cards must show
// the whole run, labelled so, and not its last, error-free second; its
// endpoint table must show the figures summary.json has, each endpoint's
// rate over its own active seconds.
func TestDashboardShowsTheWholeRunAfterTheEnd(t *testing.T) {
	b := startBrowser(t)
	url, fails, oks := failingTarget(t)
	dir := t.TempDir()
	test := writeTest(t, dir, "failing.yaml", fmt.Sprintf(`
name: mostly-failing
base_url: %s
thresholds:
  http_req_failed: ["rate < 0.5"]
scenarios:
  burst:
    model: iterations
    vus: 20
    iterations: 300
    flow:
      - get: /fail
  steady:
    rate: 5
    duration: 6s
    flow:
      - get: /ok
`, url))
	run := startLive(t, dir, "run", test, "--results", "results", "--summary-json", "s.json", "--quiet")
	b.open(run.dashboard)
	waitFor(t, 20*time.Second, "the live cards", func() bool { return cards(b)["err"].Value != "" && cards(b)["err"].Value != "-" })
	for key, c := range cards(b) {
		if want := map[bool]string{true: "so far", false: "last second"}[key == "dropped"]; c.Scope != want && text(b, "#verdict") == "LIVE" {
			t.Errorf("live card %s covers %q, want %q", key, c.Scope, want)
		}
	}
	screenshotAt(b, "wholerun-dashboard-live.png", 1400)

	if code := run.wait(t); code != 99 {
		t.Fatalf("run exit %d, want 99 (http_req_failed failed)", code)
	}
	waitFor(t, 10*time.Second, "the dashboard to show the verdict", func() bool { return text(b, "#verdict") == "FAIL" })

	var s struct {
		Metrics struct {
			Failed struct {
				Value float64 `json:"value"`
			} `json:"http_req_failed"`
			Reqs struct {
				Count int64 `json:"count"`
			} `json:"http_reqs"`
		} `json:"metrics"`
		Loadlens struct {
			Endpoints []struct {
				Scenario string  `json:"scenario"`
				Endpoint string  `json:"endpoint"`
				Requests int64   `json:"requests"`
				RPS      float64 `json:"rps"`
				ActiveS  float64 `json:"active_s"`
			} `json:"endpoints"`
		} `json:"loadlens"`
	}
	raw, err := os.ReadFile(filepath.Join(dir, "s.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatal(err)
	}
	if got, want := s.Metrics.Reqs.Count, fails.Load()+oks.Load(); got != want {
		t.Fatalf("summary.json counts %d requests; the target received %d", got, want)
	}
	wholeErr := float64(fails.Load()) / float64(fails.Load()+oks.Load())
	if wholeErr < 0.8 {
		t.Fatalf("only %.1f%% of the requests failed; the test needs most to fail", 100*wholeErr)
	}

	cs := cards(b)
	for key, c := range cs {
		if c.Scope != "whole run" {
			t.Errorf("after the end, card %s covers %q, want \"whole run\"", key, c.Scope)
		}
	}
	if want := units.Percent(wholeErr); cs["err"].Value != want {
		t.Errorf("after the end the errors card shows %q, want the whole run's %s (%d of %d failed)",
			cs["err"].Value, want, fails.Load(), fails.Load()+oks.Load())
	}
	if !strings.Contains(cs["err"].Sub, units.Count(fails.Load())+" of ") {
		t.Errorf("errors card's line %q does not count the %d failures", cs["err"].Sub, fails.Load())
	}

	rows := tableRows(b, "#endpoints tbody tr, #endpoints tfoot tr")
	server := map[string]int64{"GET /fail": fails.Load(), "GET /ok": oks.Load()}
	for _, e := range s.Loadlens.Endpoints {
		name := e.Scenario + " · " + e.Endpoint
		cells, ok := rows[name]
		if !ok || len(cells) != 11 {
			t.Errorf("the dashboard's endpoint table has no full row %q: %v", name, rows)
			continue
		}
		if cells[0] != units.Count(server[e.Endpoint]) || cells[2] != units.Number(e.RPS) {
			t.Errorf("%s: dashboard shows %s requests at %s/s; the target got %d, summary.json says %.1f/s", name, cells[0], cells[2], server[e.Endpoint], e.RPS)
		}
		if cells[4] == "-" || cells[4] == "" {
			t.Errorf("%s: no min latency in the dashboard (%v)", name, cells)
		}
	}
	if len(s.Loadlens.Endpoints) == 2 {
		burst, steady := s.Loadlens.Endpoints[0], s.Loadlens.Endpoints[1]
		if burst.RPS < 5*steady.RPS || burst.ActiveS > steady.ActiveS/2 {
			t.Errorf("the burst's %.1f/s over %.2fs is not set apart from the steady %.1f/s over %.2fs", burst.RPS, burst.ActiveS, steady.RPS, steady.ActiveS)
		}
	}
	if got := text(b, "#endpoints-note"); !strings.Contains(got, "Whole run") || !strings.Contains(got, "RPS = Requests / Active") {
		t.Errorf("the ended table's note %q does not say what it covers", got)
	}
	screenshotAt(b, "wholerun-dashboard-ended.png", 1400)
	if errs := b.consoleErrors(); len(errs) > 0 {
		t.Errorf("dashboard console errors:\n%s", strings.Join(errs, "\n"))
	}

	b.openReport(filepath.Join(onlyRunDir(t, filepath.Join(dir, "results")), "report.html"), 10*time.Second)
	rep := tableRows(b, "#endpoints tbody tr")
	for _, e := range s.Loadlens.Endpoints {
		cells := rep[e.Scenario+" · "+e.Endpoint]
		if len(cells) != 11 || cells[2] != units.Number(e.RPS) || cells[4] == "-" {
			t.Errorf("report.html's row of %s: %v, want RPS %s and a min latency", e.Endpoint, cells, units.Number(e.RPS))
		}
	}
	if got := text(b, "#rate-note"); !strings.Contains(got, "RPS = Requests / Active") {
		t.Errorf("report.html does not say what RPS is over: %q", got)
	}
	screenshotAt(b, "wholerun-report.png", 1400)
	if errs := b.consoleErrors(); len(errs) > 0 {
		t.Errorf("report console errors:\n%s", strings.Join(errs, "\n"))
	}
}
