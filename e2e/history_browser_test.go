package e2e

import (
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// history.html in Chromium: seven runs of a test with a regression after
// the fourth; the page draws a chart per figure group, marks the change
// point, shows the labels, and every run's link opens its report.html.
func TestHistoryHTMLInABrowser(t *testing.T) {
	n := newNightlyTarget(t)
	for i := range 7 {
		if i == 4 {
			n.serviceTime(300 * time.Millisecond)
		}
		n.run(i)
	}
	dir := n.dir
	r := loadlens(t, dir, "history", "nightly", "--html")
	page := filepath.Join(dir, "results", "history.html")
	if r.code != 0 || !strings.Contains(r.stdout, page[len(dir)+1:]) {
		t.Fatalf("history --html exit %d, want 0 and the page's path\n%s%s", r.code, r.stdout, r.stderr)
	}
	b := startBrowser(t)
	b.open(fileURL(t, page))
	waitFor(t, 20*time.Second, "history.html to draw", func() bool {
		var ready bool
		b.eval(`return !!(window.LLhistory && LLhistory.ready)`, &ready)
		return ready
	})
	var got struct {
		Charts, Marks, Canvases, Changes, SameLabels int
		LabelGap                                     float64
		MarkedAt, ChangeAt                           []float64
		Links                                        []string
		Tags                                         string
	}
	b.eval(`var d = JSON.parse(document.getElementById("loadlens-data").textContent);
		return {charts: LLhistory.charts, marks: LLhistory.marks(), labelGap: LLhistory.labelGap(),
		sameLabels: LLhistory.sameLabels(), markedAt: LLhistory.markedAt(),
		changeAt: d.series[0].endpoints.flatMap(e => e.changes.map(c => c.at)),
		canvases: Array.from(document.querySelectorAll(".panels canvas")).filter(c => c.width > 0).length,
		changes: document.querySelectorAll("ul.changes li.worse").length,
		links: Array.from(document.querySelectorAll("table a")).map(a => a.href).concat(d.series[0].runs.map(r => new URL(r.link, location.href).href)),
		tags: d.series[0].runs.map(r => r.tags).join(" ")}`, &got)
	if got.Charts != 4 || got.Canvases < 4 {
		t.Errorf("%d charts, %d canvases drawn; want 4 (median, tail latency, rps, errors of one endpoint)", got.Charts, got.Canvases)
	}
	if got.Marks == 0 || got.Changes == 0 {
		t.Errorf("change points: %d marks drawn, %d listed as worse; want the regression marked", got.Marks, got.Changes)
	}
	// fresh39: the line was drawn half a run before the first run of the new level
	for _, at := range got.MarkedAt {
		if !slices.Contains(got.ChangeAt, at) {
			t.Errorf("a change point drawn at run %g, want it on a first run of a new level %v", at, got.ChangeAt)
		}
	}
	if got.SameLabels > 0 { // fresh39: runs a minute apart read "11-30 20:44" on several ticks
		t.Errorf("%d x-axis labels repeat another's text", got.SameLabels)
	}
	if got.LabelGap < 90 { // "11-30 00:51" is about 75 px wide
		t.Errorf("x-axis labels %.0f px apart: they overlap", got.LabelGap)
	}
	if !strings.Contains(got.Tags, "commit=c04") {
		t.Errorf("the runs' labels %q lack commit=c04", got.Tags)
	}
	if len(got.Links) != 14 {
		t.Errorf("%d links, want 7 in the table and 7 on the points", len(got.Links))
	}
	for _, l := range got.Links {
		u, err := url.Parse(l)
		if err != nil || u.Scheme != "file" || !strings.HasSuffix(u.Path, "/report.html") {
			t.Errorf("link %q is not a report.html", l)
			continue
		}
		if _, err := os.Stat(u.Path); err != nil {
			t.Errorf("link %q does not resolve: %v", l, err)
		}
	}
	if errs := b.consoleErrors(); len(errs) > 0 {
		t.Errorf("console errors: %v", errs)
	}
	b.screenshot("history.png")
	// A click on a point (press and release where it is) opens that run's report.
	b.eval(`var o = document.querySelector(".panels .u-over"), r = o.getBoundingClientRect();
		var ev = {bubbles: true, clientX: r.right - 2, clientY: r.top + r.height / 2, button: 0};
		["mousemove", "mousedown", "mouseup", "click"].forEach(function (k) { o.dispatchEvent(new MouseEvent(k, ev)); });
		return null`, nil)
	waitFor(t, 10*time.Second, "a click on a point to open its report", func() bool {
		var href string
		b.eval(`return location.href`, &href)
		return strings.HasSuffix(href, "/report.html")
	})
}
