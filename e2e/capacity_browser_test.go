package e2e

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/capacity"
	"github.com/loadlens/loadlens/internal/report"
)

// pageLayout is where capacity.html put its charts and their labels, in
// CSS pixels of the viewport.
type pageLayout struct {
	Viewport    float64 `json:"viewport"` // the viewport's width, scroll bar excluded
	ScrollWidth float64 `json:"scrollWidth"`
	Charts      []struct {
		Title  string  `json:"title"`
		Box    rect    `json:"box"`  // the panel
		Plot   rect    `json:"plot"` // uPlot's root: canvas, axes and legend
		Width  float64 `json:"width"`
		Points int     `json:"points"`
		Labels []struct {
			Kind string `json:"kind"`
			Text string `json:"text"`
			rect
		} `json:"labels"`
	} `json:"charts"`
}

type rect struct {
	Left   float64 `json:"left"`
	Top    float64 `json:"top"`
	Right  float64 `json:"right"`
	Bottom float64 `json:"bottom"`
}

func (a rect) overlaps(b rect) bool {
	return a.Left < b.Right && b.Left < a.Right && a.Top < b.Bottom && b.Top < a.Bottom
}

// inside reports whether a lies within b, give or take a pixel of rounding.
func (a rect) inside(b rect) bool {
	return a.Left >= b.Left-1 && a.Right <= b.Right+1 && a.Top >= b.Top-1 && a.Bottom <= b.Bottom+1
}

func (a rect) String() string {
	return fmt.Sprintf("[%.0f,%.0f]–[%.0f,%.0f]", a.Left, a.Top, a.Right, a.Bottom)
}

// readLayout reads the page's layout once its charts are as wide as their boxes.
func readLayout(t *testing.T, b *browser) pageLayout {
	t.Helper()
	// Poll, at most 5s, until every chart is as wide as its box; a chart
	// that never follows is reported with the layout it left.
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		var settled bool
		b.eval(`return LL.charts.length > 0 && LL.charts.every(c => Math.abs(c.u.width - c.size().width) < 1)`, &settled)
		if settled {
			break
		}
		if time.Now().After(deadline) {
			t.Errorf("the charts did not take the width of their boxes within 5s")
			break
		}
	}
	var l pageLayout
	b.eval(`var r = e => { var x = e.getBoundingClientRect(); return {left: x.left, top: x.top, right: x.right, bottom: x.bottom}; };
		var labels = LL.labels();
		return {viewport: document.documentElement.clientWidth, scrollWidth: document.documentElement.scrollWidth,
			charts: LL.charts.map((c, i) => ({title: c.title, box: r(c.box), plot: r(c.u.root), width: c.u.width,
				points: c.points(), labels: labels[i].labels}))}`, &l)
	return l
}

// checkLayout asserts that no two charts overlap, each is inside the
// viewport with its plot inside its box, and no two labels of a chart
// overlap or leave it.
func checkLayout(t *testing.T, l pageLayout, width int) {
	t.Helper()
	if len(l.Charts) != 2 {
		t.Fatalf("at %d px: %d charts, want 2", width, len(l.Charts))
	}
	if l.ScrollWidth > l.Viewport+1 {
		t.Errorf("at %d px: the page is %.0f px wide, more than its %.0f px viewport", width, l.ScrollWidth, l.Viewport)
	}
	view := rect{Left: 0, Right: l.Viewport, Top: -1e9, Bottom: 1e9}
	for i, c := range l.Charts {
		if c.Points == 0 || c.Width < 200 {
			t.Errorf("at %d px: chart %q has %d points and is %.0f px wide", width, c.Title, c.Points, c.Width)
		}
		if !c.Box.inside(view) {
			t.Errorf("at %d px: chart %q at %v is outside the viewport (0–%.0f)", width, c.Title, c.Box, l.Viewport)
		}
		if !c.Plot.inside(c.Box) {
			t.Errorf("at %d px: chart %q draws at %v, outside its box %v", width, c.Title, c.Plot, c.Box)
		}
		for _, o := range l.Charts[i+1:] {
			if c.Box.overlaps(o.Box) || c.Plot.overlaps(o.Plot) {
				t.Errorf("at %d px: chart %q (%v) overlaps chart %q (%v)", width, c.Title, c.Box, o.Title, o.Box)
			}
		}
		if len(c.Labels) < 6 {
			t.Errorf("at %d px: chart %q has only %d labels", width, c.Title, len(c.Labels))
		}
		for j, a := range c.Labels {
			if !a.rect.inside(c.Box) {
				t.Errorf("at %d px: %s label %q at %v leaves chart %q %v", width, a.Kind, a.Text, a.rect, c.Title, c.Box)
			}
			for _, z := range c.Labels[j+1:] {
				if a.rect.overlaps(z.rect) {
					t.Errorf("at %d px: in chart %q the %s label %q %v overlaps the %s label %q %v", width, c.Title, a.Kind, a.Text, a.rect, z.Kind, z.Text, z.rect)
				}
			}
		}
	}
}

// resizeTo makes the viewport width × height CSS pixels.
func resizeTo(b *browser, width, height int) {
	b.t.Helper()
	b.call("POST", b.path("/window/rect"), map[string]int{"width": width, "height": height}, nil)
	var inner int
	b.eval(`return window.innerWidth`, &inner)
	if inner != width { // a window with a frame: make the inside the width asked for
		b.call("POST", b.path("/window/rect"), map[string]int{"width": 2*width - inner, "height": height}, nil)
	}
}

// shoot saves the whole page at its current width as a PNG in dir.
func shoot(t *testing.T, b *browser, dir string, width int) string {
	t.Helper()
	var height int
	b.eval(`return Math.ceil(document.documentElement.scrollHeight)`, &height)
	resizeTo(b, width, min(max(height, 800), 4000))
	readLayout(t, b) // the height changed: let the charts settle
	var shot string
	b.call("GET", b.path("/screenshot"), nil, &shot)
	png, err := base64.StdEncoding.DecodeString(shot)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, fmt.Sprintf("capacity-%d.png", width))
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	if keep := os.Getenv("LOADLENS_KEEP_SCREENSHOTS"); keep != "" { // to look at them after the test
		if err := os.WriteFile(filepath.Join(keep, filepath.Base(path)), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("screenshot at %d px: %s", width, path)
	return path
}

// TestCapacityPageLayout renders capacity.html of a recorded search (a busy
// host: runs retried, runs judged on a busy host, a USL fit) and loads it
// at 1000, 1400 and 1920 px: the charts never overlap each other, stay in
// the viewport, and no axis or mark label covers another. Then it narrows
// the window without reloading: the charts reflow.
func TestCapacityPageLayout(t *testing.T) {
	b := startBrowser(t)
	raw, err := os.ReadFile(filepath.Join("testdata", "capacity-search.json"))
	if err != nil {
		t.Fatal(err)
	}
	var res capacity.Result
	if err := json.Unmarshal(raw, &res); err != nil {
		t.Fatalf("testdata/capacity-search.json: %v", err)
	}
	dir := t.TempDir()
	page := filepath.Join(dir, "capacity.html")
	f, err := os.Create(page)
	if err != nil {
		t.Fatal(err)
	}
	if err := report.WriteCapacityHTML(f, res, "orders", res.Config.LatencyLimit); err != nil {
		t.Fatal(err)
	}
	f.Close()

	for _, width := range []int{1000, 1400, 1920} {
		resizeTo(b, width, 1100)
		b.openReport(page, 20*time.Second)
		l := readLayout(t, b)
		checkLayout(t, l, width)
		first, second := l.Charts[0].Box, l.Charts[1].Box
		if sideBySide := second.Top < first.Bottom; sideBySide != (width >= 1400) {
			t.Errorf("at %d px the charts are side by side: %v (first %v, second %v)", width, sideBySide, first, second)
		}
		shoot(t, b, dir, width)
	}
	// From 1920 px down to 1000 px without a reload: the charts follow.
	resizeTo(b, 1000, 1100)
	checkLayout(t, readLayout(t, b), 1000)

	for _, want := range []string{"retried runs", "scalability (usl fit)", "bisect, try 2", "not judged, run again"} {
		if !strings.Contains(strings.ToLower(text(b, "main")), want) {
			t.Errorf("the page does not show %q", want)
		}
	}
	if errs := b.consoleErrors(); len(errs) > 0 {
		t.Errorf("console errors:\n%s", strings.Join(errs, "\n"))
	}
}
