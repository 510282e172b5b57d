package e2e

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// liveRun is a run of the binary whose dashboard URL has been printed.
type liveRun struct {
	cmd       *exec.Cmd
	dashboard string
	done      chan error
}

// startLive starts `loadlens run args...` in dir and waits for it to print
// its dashboard's URL.
func startLive(t *testing.T, dir string, args ...string) *liveRun {
	t.Helper()
	run, url := startAwaiting(t, dir, "dashboard: ", args...)
	run.dashboard = url
	return run
}

// startAwaiting starts the binary with args in dir and waits for it to
// print a line starting with prefix; it returns the process and the first
// word after the prefix (a URL). The process is killed when the test ends.
func startAwaiting(t *testing.T, dir, prefix string, args ...string) (*liveRun, string) {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Dir = dir
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	run := &liveRun{cmd: cmd, done: make(chan error, 1)}
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if rest, ok := strings.CutPrefix(sc.Text(), prefix); ok {
				found <- strings.Fields(rest)[0]
			}
		}
		io.Copy(io.Discard, out)
		run.done <- cmd.Wait()
	}()
	t.Cleanup(func() { cmd.Process.Kill() })
	select {
	case word := <-found:
		return run, word
	case err := <-run.done:
		t.Fatalf("loadlens %v ended before printing %q: %v", args, prefix, err)
	case <-time.After(30 * time.Second):
		t.Fatalf("loadlens %v printed no %q line within 30s", args, prefix)
	}
	return nil, ""
}

// wait waits for the run to end and returns its exit code.
func (r *liveRun) wait(t *testing.T) int {
	t.Helper()
	select {
	case err := <-r.done:
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode()
		}
		if err != nil {
			t.Fatal(err)
		}
		return 0
	case <-time.After(90 * time.Second):
		t.Fatal("the run did not end within 90s")
		return -1
	}
}

// chartState is what a page's charts hold, read through window.LL.
type chartState struct {
	Title  string `json:"title"`
	Points int    `json:"points"`
	Canvas bool   `json:"canvas"`
}

func charts(b *browser) []chartState {
	var out []chartState
	b.eval(`return (window.LL && LL.charts || []).map(c => ({title: c.title, points: c.points(),
		canvas: !!c.plot.querySelector("canvas") && c.plot.querySelector("canvas").width > 0}))`, &out)
	return out
}

// assertCharts checks that the page drew at least want charts, each with data.
func assertCharts(t *testing.T, b *browser, want int) {
	t.Helper()
	cs := charts(b)
	if len(cs) < want {
		t.Errorf("%d charts drawn, want at least %d: %+v", len(cs), want, cs)
	}
	for _, c := range cs {
		if c.Points == 0 || !c.Canvas {
			t.Errorf("chart %q has no data drawn (%d points, canvas %v)", c.Title, c.Points, c.Canvas)
		}
	}
}

func text(b *browser, selector string) string {
	var s string
	b.eval(fmt.Sprintf(`var e = document.querySelector(%q); return e ? e.innerText : ""`, selector), &s)
	return s
}

func TestDashboardAndReportInABrowser(t *testing.T) {
	b := startBrowser(t)
	srv := target(t)
	dir := t.TempDir()
	test := writeTest(t, dir, "shop.yaml", fmt.Sprintf(`
name: browser-shop
base_url: %s
thresholds:
  http_req_duration: ["p(95) < 2s"]
  http_req_failed: ["rate < 0.5"]
scenarios:
  browse:
    rate: 40
    duration: 10s
    flow:
      - get: /ok
        check:
          - status: 200
      - get: /flaky
        check:
          - status: 200
`, srv.URL))
	run := startLive(t, dir, "run", test, "--results", "results", "--junit", "junit.xml", "--summary-md", "summary.md")

	b.open(run.dashboard)
	waitFor(t, 20*time.Second, "the dashboard to draw 3 seconds", func() bool {
		var n int
		b.eval(`return window.LL && LL.charts.length ? LL.charts[0].u.data[0].length : 0`, &n)
		return n >= 3
	})
	assertCharts(t, b, 5)
	for _, want := range []string{"browser-shop", "LIVE"} {
		if got := text(b, "header"); !strings.Contains(got, want) {
			t.Errorf("dashboard header %q lacks %q", got, want)
		}
	}
	if got := text(b, "#thresholds"); !strings.Contains(got, "p(95) < 2s") || !strings.Contains(got, "p(95)=") {
		t.Errorf("dashboard thresholds lack a live value:\n%s", got)
	}
	b.screenshot("dashboard.png")
	if errs := b.consoleErrors(); len(errs) > 0 {
		t.Errorf("dashboard console errors:\n%s", strings.Join(errs, "\n"))
	}
	var seen, reopened int
	b.eval(`return LL.charts[0].u.data[0].length`, &seen)
	// the dashboard lives as long as the run: on a busy host the steps above may outlast it
	if dashboardUp(run.dashboard) {
		b.open(run.dashboard) // a page opened mid-run shows the run so far
		drawn := pollUntil(10*time.Second, func() bool {
			b.eval(`return window.LL && LL.charts.length ? LL.charts[0].u.data[0].length : 0`, &reopened)
			return reopened > 0
		})
		switch {
		case !drawn && dashboardUp(run.dashboard):
			t.Errorf("the dashboard opened again mid-run drew nothing in 10s")
		case !drawn:
			t.Log("the run ended while the dashboard was opened again: the mid-run reopen is not judged")
		case reopened < seen:
			t.Errorf("the dashboard opened again mid-run shows %d seconds, want at least the %d shown before", reopened, seen)
		}
	} else {
		t.Log("the run ended before the dashboard could be opened again: the mid-run reopen is not judged")
	}

	if code := run.wait(t); code != 0 {
		t.Fatalf("run exit %d, want 0", code)
	}
	waitFor(t, 10*time.Second, "the dashboard to show the verdict", func() bool { return text(b, "#verdict") == "PASS" })
	if got := text(b, "#ended"); !strings.Contains(got, "report.html") {
		t.Errorf("the ended dashboard does not point to report.html: %q", got)
	}
	b.screenshot("dashboard-ended.png")
	var sessionsHidden bool
	b.eval(`return document.getElementById("sessions-box").hidden`, &sessionsHidden)
	if !sessionsHidden {
		t.Errorf("an HTTP-only run's dashboard shows a sessions panel")
	}

	runDir := onlyRunDir(t, filepath.Join(dir, "results"))
	report := filepath.Join(runDir, "report.html")
	b.openReport(report, 10*time.Second)
	assertCharts(t, b, 6)
	if got := text(b, "#verdict"); got != "PASS" {
		t.Errorf("report verdict %q, want PASS", got)
	}
	var rows int
	b.eval(`return document.querySelectorAll("#endpoints tbody tr").length`, &rows)
	if rows != 2 {
		t.Errorf("report endpoint table has %d rows, want 2", rows)
	}
	for _, want := range []string{"GET /ok", "GET /flaky", "http_5xx", "500 Internal Server Error", "status is 200", "shop.yaml"} {
		if got := text(b, "main"); !strings.Contains(got, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	var fetched []string
	b.eval(`return performance.getEntriesByType("resource").map(e => e.name)`, &fetched)
	if len(fetched) > 0 {
		t.Errorf("report.html fetched %v; it must be self-contained", fetched)
	}
	b.screenshot("report.png")
	if errs := b.consoleErrors(); len(errs) > 0 {
		t.Errorf("report console errors:\n%s", strings.Join(errs, "\n"))
	}
	for _, f := range []string{"junit.xml", "summary.md"} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("--%s file %s: %v", strings.TrimSuffix(f, filepath.Ext(f)), f, err)
		}
	}
}

// xssPayload is markup a hostile or broken target might answer with: run
// as code anywhere, it would set window.__xss.
const xssPayload = `<script>window.__xss=1</script>"><img src=x onerror="window.__xss=2">`

// hostile answers with the payload in its status text, headers and body.
func hostile(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		conn, buf, err := http.NewResponseController(w).Hijack()
		if err != nil {
			return
		}
		defer conn.Close()
		body := "<html>" + xssPayload + "</html>"
		fmt.Fprintf(buf, "HTTP/1.1 500 %s\r\nX-Evil: %s\r\nContent-Type: text/html\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s",
			xssPayload, xssPayload, len(body), body)
		buf.Flush()
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestTargetMarkupRunsNothing(t *testing.T) {
	b := startBrowser(t)
	srv := hostile(t)
	dir := t.TempDir()
	test := writeTest(t, dir, "xss.yaml", fmt.Sprintf(`
name: xss
base_url: %s
thresholds:
  http_req_failed: ["rate < 0.5"]
scenarios:
  hostile:
    rate: 10
    duration: 4s
    flow:
      - get: /page?q=%s
        name: '/evil/%s'
        check:
          - name: '%s'
            status: 200
`, srv.URL, "%3Cscript%3E", xssPayload, xssPayload))
	run := startLive(t, dir, "run", test, "--results", "results", "--quiet")
	b.open(run.dashboard)
	waitFor(t, 20*time.Second, "the dashboard to draw 2 seconds", func() bool {
		var n int
		b.eval(`return window.LL && LL.charts.length ? LL.charts[0].u.data[0].length : 0`, &n)
		return n >= 2
	})
	assertNothingRan(t, b, "dashboard", []string{"GET /evil/" + xssPayload})
	b.screenshot("xss-dashboard.png")
	if code := run.wait(t); code != 99 {
		t.Fatalf("run exit %d, want 99 (every request failed)", code)
	}

	runDir := onlyRunDir(t, filepath.Join(dir, "results"))
	b.openReport(filepath.Join(runDir, "report.html"), 10*time.Second)
	assertNothingRan(t, b, "report", []string{"GET /evil/" + xssPayload, "500 " + xssPayload, "name: '" + xssPayload + "'"})
	b.screenshot("xss-report.png")
}

// assertNothingRan checks that no injected script or handler ran, no
// injected element exists, and each wanted text shows literally.
func assertNothingRan(t *testing.T, b *browser, page string, texts []string) {
	t.Helper()
	var flag any
	b.eval(`return window.__xss === undefined ? null : window.__xss`, &flag)
	if flag != nil {
		t.Errorf("%s: injected code ran (window.__xss = %v)", page, flag)
	}
	var imgs int
	b.eval(`return document.querySelectorAll("img").length`, &imgs)
	if imgs != 0 {
		t.Errorf("%s: %d injected <img> elements", page, imgs)
	}
	var all string
	b.eval(`return document.body.innerText + "\n" + Array.from(document.querySelectorAll("option")).map(o => o.textContent).join("\n")`, &all)
	for _, want := range texts {
		if !strings.Contains(all, want) {
			t.Errorf("%s does not show %q literally", page, want)
		}
	}
	if errs := b.consoleErrors(); len(errs) > 0 {
		t.Errorf("%s console errors (a CSP violation means markup got through):\n%s", page, strings.Join(errs, "\n"))
	}
}
