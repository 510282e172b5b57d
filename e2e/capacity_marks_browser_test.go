package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/capacity"
	"github.com/loadlens/loadlens/internal/report"
)

// TestCapacityPageFiguresAreTheCards: the field trial's case-3 search
// (steps 40, 60, 50, 45, 42.5, 41.25/s) marked "knee / highest sustainable
// 41.3/s" on its charts while its cards and table said 41.2/s — the
// browser rounded 41.25 its own way — and joined its latency points with
// a line. The marks and the legend now write what the table writes, and
// the latency chart draws its steps as points.
func TestCapacityPageFiguresAreTheCards(t *testing.T) {
	b := startBrowser(t)
	raw, err := os.ReadFile(filepath.Join("testdata", "capacity-case3-trial.json"))
	if err != nil {
		t.Fatal(err)
	}
	var res capacity.Result
	if err := json.Unmarshal(raw, &res); err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(t.TempDir(), "capacity.html")
	f, err := os.Create(page)
	if err != nil {
		t.Fatal(err)
	}
	if err := report.WriteCapacityHTML(f, res, "case3-feed", 100*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	f.Close()
	resizeTo(b, 1400, 1100)
	b.openReport(page, 20*time.Second)
	l := readLayout(t, b)
	tests := []struct {
		chart     int
		wantMarks []string
		lines     bool // the steps are joined by a line
	}{
		{chart: 0, wantMarks: []string{"knee 41.2 iterations/s", "highest sustainable 41.2 iterations/s"}, lines: true},
		{chart: 1, wantMarks: []string{"knee 41.2 iterations/s", "highest sustainable 41.2 iterations/s", "SLO p95 100ms"}, lines: false},
	}
	for _, tt := range tests {
		var marks []string
		for _, lb := range l.Charts[tt.chart].Labels {
			if lb.Kind == "mark" {
				marks = append(marks, lb.Text)
			}
		}
		if strings.Join(marks, " | ") != strings.Join(tt.wantMarks, " | ") {
			t.Errorf("chart %q marks %q, want %q", l.Charts[tt.chart].Title, marks, tt.wantMarks)
		}
		// uPlot's series[i]._paths holds the path it drew; a points-only
		// series draws none.
		var lines []bool
		b.eval(`return LL.charts[`+string(rune('0'+tt.chart))+`].u.series.slice(1).filter(s => s.points.show)
			.map(s => !!(s._paths && s._paths.stroke))`, &lines)
		for i, drawn := range lines {
			if drawn != tt.lines {
				t.Errorf("chart %q series %d draws a line: %v, want %v", l.Charts[tt.chart].Title, i+1, drawn, tt.lines)
			}
		}
		// The legend of the step at 41.25/s, as the table writes it.
		var legend []string
		b.eval(`var u = LL.charts[`+string(rune('0'+tt.chart))+`].u; return u.series.map((s, i) => s.value(u, u.data[i][1], i, 1))`, &legend)
		want := map[int][]string{0: {"41.2 iterations/s", "41.2 req/s", "41.2 req/s"}, 1: {"41.2 iterations/s", "44.3ms", "99.8ms"}}[tt.chart]
		if strings.Join(legend, " ") != strings.Join(want, " ") {
			t.Errorf("chart %q legend of the 41.25/s step %q, want %q", l.Charts[tt.chart].Title, legend, want)
		}
	}
	if errs := b.consoleErrors(); len(errs) > 0 {
		t.Errorf("console errors:\n%s", strings.Join(errs, "\n"))
	}
}
