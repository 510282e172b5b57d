package e2e

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// fitState is how a page lies in a narrow window, read in the browser.
type fitState struct {
	Width  int      `json:"width"`  // the window's inner width
	Scroll int      `json:"scroll"` // the page's width: more than Width scrolls sideways
	Over   []string `json:"over"`   // what ends past the window or past its panel
	Ends   []string `json:"ends"`   // each time chart's title and the last label of its x axis
}

// fitJS measures the page: every chart inside the window, every legend
// item inside its panel, every table's box inside the window.
const fitJS = `var W = window.innerWidth, out = {width: W, scroll: document.documentElement.scrollWidth, over: [], ends: []};
LL.charts.forEach(function (c) {
  var box = c.box.getBoundingClientRect(), root = c.u.root.getBoundingClientRect();
  if (root.right > W + 0.5 || box.right > W + 0.5) out.over.push(c.title + ": the chart ends at " + Math.round(root.right) + " px");
  c.box.querySelectorAll(".u-legend .u-series").forEach(function (s) {
    var r = s.getBoundingClientRect();
    if (r.width > 0 && r.right > box.right + 0.5) out.over.push(c.title + ": legend " + JSON.stringify(s.innerText) + " ends at " + Math.round(r.right) + " px, past its panel at " + Math.round(box.right));
  });
  if (c.timeAxis) { var v = c.u.axes[0]._values || []; out.ends.push(c.title + " → " + v[v.length - 1]); }
});
document.querySelectorAll(".table-wrap").forEach(function (w) {
  var r = w.getBoundingClientRect();
  if (r.width > 0 && r.right > W + 0.5) out.over.push("table " + (w.querySelector("table").id || "") + " ends at " + Math.round(r.right) + " px");
});
// what widens the page: the outermost element past the window outside any box that scrolls
if (out.scroll > W) document.querySelectorAll("body *").forEach(function (e) {
  var a = e.parentElement, past = function (x) { return x.getBoundingClientRect().left + x.scrollWidth > W + 0.5; };
  while (a && getComputedStyle(a).overflowX === "visible") a = a.parentElement;
  if (!a && past(e) && !(e.parentElement !== document.body && past(e.parentElement) && e.parentElement.tagName !== "MAIN") && out.over.length < 12)
    out.over.push("<" + e.tagName.toLowerCase() + " class=" + JSON.stringify(e.className) + "> is " + e.scrollWidth + " px wide");
});
return out;`

// setWidth resizes the browser window to width px.
func (b *browser) setWidth(width int) {
	b.t.Helper()
	b.call("POST", b.path("/window/rect"), map[string]int{"width": width, "height": 900}, nil)
}

// assertFits checks that the page fits the window's width (no sideways
// scrolling, nothing cut) and that each time chart's axis runs to end.
func assertFits(t *testing.T, b *browser, page, end string) {
	t.Helper()
	var f fitState
	b.eval(fitJS, &f)
	if f.Width > 400 {
		t.Fatalf("%s: the window is %d px wide, want a phone's 390", page, f.Width)
	}
	if f.Scroll > f.Width {
		t.Errorf("%s at %d px: the page is %d px wide and scrolls sideways", page, f.Width, f.Scroll)
	}
	for _, o := range f.Over {
		t.Errorf("%s at %d px: %s", page, f.Width, o)
	}
	if len(f.Ends) < 3 {
		t.Errorf("%s: %d time charts, want the 3 of the run or more: %q", page, len(f.Ends), f.Ends)
	}
	for _, e := range f.Ends {
		if !strings.HasSuffix(e, "→ "+end) {
			t.Errorf("%s at %d px: the time axis of %s; want it to run to the run's end, %s", page, f.Width, e, end)
		}
	}
}

// TestPagesFitAPhoneScreen opens the live dashboard and report.html in a
// window 390 px wide, a phone's: the pages once kept their 560 px chart
// columns, so they scrolled sideways, the time axes were cut before the
// run's end and the legends and tables were cut at the screen's edge. At
// 1280 px the charts still stand two abreast.
func TestPagesFitAPhoneScreen(t *testing.T) {
	b := startBrowser(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) }))
	t.Cleanup(srv.Close)
	dir := t.TempDir()
	test := writeTest(t, dir, "narrow.yaml", fmt.Sprintf(`
name: narrow
base_url: %s
thresholds:
  http_req_duration: ["p(95) < 10000"]
  http_req_failed: ["rate < 0.5"]
scenarios:
  steady:
    rate: 20
    duration: 6s
    flow:
      - get: /ok
`, srv.URL))
	run := startLive(t, dir, "run", test, "--results", "results", "--quiet")
	b.setWidth(390)
	b.open(run.dashboard)
	waitFor(t, 20*time.Second, "the live charts", func() bool {
		cs := charts(b)
		return len(cs) >= 3 && cs[0].Points > 0
	})
	assertFits(t, b, "the live dashboard", "0:06")
	screenshotAt(b, "narrow-dashboard-390.png", 390)

	if code := run.wait(t); code != 0 {
		t.Fatalf("run exit %d, want 0", code)
	}
	pages, err := filepath.Glob(filepath.Join(dir, "results", "*", "report.html"))
	if err != nil || len(pages) != 1 {
		t.Fatalf("want one report.html, found %v (%v)", pages, err)
	}
	b.setWidth(390)
	b.openReport(pages[0], 20*time.Second)
	assertFits(t, b, "report.html", "0:06")
	screenshotAt(b, "narrow-report-390.png", 390)

	b.setWidth(1280)
	b.openReport(pages[0], 20*time.Second)
	var abreast bool
	b.eval(`var p = document.querySelectorAll("#panels > .panel");
		return p.length >= 2 && p[0].getBoundingClientRect().top === p[1].getBoundingClientRect().top`, &abreast)
	if !abreast {
		t.Errorf("report.html at 1280 px: the first two charts are not side by side")
	}
	screenshotAt(b, "narrow-report-1280.png", 1280)
	if errs := b.consoleErrors(); len(errs) > 0 {
		t.Errorf("console errors:\n%s", strings.Join(errs, "\n"))
	}
}
