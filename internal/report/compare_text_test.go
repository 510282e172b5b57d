package report

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/loadlens/loadlens/internal/compare"
	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/units"
)

// comparison reads back one of compare's golden comparisons (its JSON
// output, and the seconds of its runs where it keeps them).
func comparison(t *testing.T, name string) *compare.Report {
	t.Helper()
	dir := filepath.Join("..", "compare", "testdata")
	raw, err := os.ReadFile(filepath.Join(dir, name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	r := &compare.Report{}
	if err := json.Unmarshal(raw, r); err != nil {
		t.Fatal(err)
	}
	raw, err = os.ReadFile(filepath.Join(dir, name+".seconds.json"))
	if os.IsNotExist(err) {
		return r
	}
	if err != nil {
		t.Fatal(err)
	}
	into := struct {
		Seconds *[][]metrics.Second `json:"seconds"`
		Loads   *[][]float64        `json:"loads"`
	}{&r.Seconds, &r.Loads}
	if err := json.Unmarshal(raw, &into); err != nil {
		t.Fatal(err)
	}
	return r
}

// TestCompareGoldenOutputs renders compare's golden comparisons as the
// terminal and Markdown show them.
func TestCompareGoldenOutputs(t *testing.T) {
	text := func(b *bytes.Buffer, r *compare.Report) error { return WriteCompareText(b, r) }
	md := func(b *bytes.Buffer, r *compare.Report) error { return WriteCompareMarkdown(b, r) }
	tests := []struct {
		file, comparison string
		write            func(*bytes.Buffer, *compare.Report) error
	}{
		{"compare.txt", "compare", text},
		{"compare.md", "compare", md},
		{"compare-groups.txt", "compare-groups", text},
		{"compare-marks.txt", "compare-marks", text},
		{"compare-sessions.txt", "compare-sessions", text},
		{"compare-sessions.md", "compare-sessions", md},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			var got bytes.Buffer
			if err := tc.write(&got, comparison(t, tc.comparison)); err != nil {
				t.Fatal(err)
			}
			golden(t, tc.file, got.Bytes())
		})
	}
}

// TestCompareChangeText checks the cells of a change: significant with its
// interval, "~" when not, the noise when it held a change back, and why a
// change was not tested.
func TestCompareChangeText(t *testing.T) {
	pct := func(x float64) *float64 { return &x }
	cases := []struct {
		name string
		m    compare.Metric
		v    compare.Value
		want string
	}{
		{"a significant rise", compare.P95, compare.Value{Delta: pct(3), DeltaPct: pct(30.2), CI: &compare.Interval{Lo: 2, Hi: 4},
			CIPct: &compare.Interval{Lo: 20.1, Hi: 40.3}, Significant: true, MinEffect: 1}, "+30.2% [+20.1%, +40.3%]"},
		{"no significant change", compare.P50, compare.Value{Delta: pct(0.1), DeltaPct: pct(1), CI: &compare.Interval{Lo: -1, Hi: 1},
			CIPct: &compare.Interval{Lo: -2, Hi: 3}, MinEffect: 1}, "~ [-2.0%, +3.0%]"},
		{"held back by noise", compare.P50, compare.Value{Delta: pct(0.1), DeltaPct: pct(4), CI: &compare.Interval{Lo: 0.05, Hi: 0.2},
			CIPct: &compare.Interval{Lo: 2, Hi: 6}, MinEffect: 5}, "~ [+2.0%, +6.0%] < noise 5.0%"},
		{"errors in points", compare.ErrorRate, compare.Value{Delta: pct(0.02), CI: &compare.Interval{Lo: 0.01, Hi: 0.03},
			Significant: true, MinEffect: 0.001}, "+2.00pp [+1.00pp, +3.00pp]"},
		{"not tested", compare.TPS, compare.Value{Delta: pct(-12.5), NotTested: "fewer than 10 compared seconds"},
			"-12.5 req/s (not testable: fewer than 10 compared seconds)"},
		{"the baseline", compare.TPS, compare.Value{Has: true, Value: 100}, ""},
	}
	for _, c := range cases {
		if got := compareChangeText(c.m, c.v); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
	if got := compareValueText(compare.P95, compare.Value{}); got != "—" {
		t.Errorf("a value the group lacks reads %q", got)
	}
	if got := strings.Join([]string{compareValueText(compare.TPS, compare.Value{Has: true, Value: 3702.4}),
		compareValueText(compare.P95, compare.Value{Has: true, Value: 12.34}), compareValueText(compare.ErrorRate, compare.Value{Has: true, Value: 0.0123})}, " "); got != "3,702 12.3ms 1.23%" {
		t.Errorf("values read %q", got)
	}
}

// TestCompareTextFitsTheTerminal: every line of a comparison fits
// units.Columns — with long run names, a long note, untestable changes
// (their reasons as footnotes) and more groups than one table holds
// (split into tables that each start with the baseline).
func TestCompareTextFitsTheTerminal(t *testing.T) {
	r := comparison(t, "compare")
	for i := range r.Runs {
		r.Runs[i].Name = "20261124-080721-steady-run-of-the-checkout-service-" + r.Runs[i].Label
	}
	r.Runs[1].Note = "no steady part of 5 seconds or more in the data and no hold in the test's stages: the whole run is compared; load 80 req/s vs the baseline's 50 req/s (+60.0%): not the same load, so a change may come from the load, not the system"
	// Two more groups, copies of the last: five columns of changes.
	for _, row := range r.Rows {
		for li := range row.Lines {
			l := &row.Lines[li]
			l.Values = append(l.Values, l.Values[2], l.Values[2])
		}
	}
	r.Groups = append(r.Groups, r.Groups[2], r.Groups[2])
	r.Groups[3].Name, r.Groups[4].Name = "D", "E"
	var b bytes.Buffer
	if err := WriteCompareText(&b, r); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for i, l := range strings.Split(out, "\n") {
		if n := utf8.RuneCountInString(l); n > units.Columns {
			t.Errorf("line %d is %d columns:\n%s", i+1, n, l)
		}
	}
	for _, want := range []string{"E vs A", "(continued)", "not testable¹", "¹ not testable: needs 1,000 requests a run", "B: no steady part"} {
		if !strings.Contains(out, want) {
			t.Errorf("the text lacks %q:\n%s", want, out)
		}
	}
	if t.Failed() || testing.Verbose() {
		t.Log(out)
	}
}

// TestAnEndpointWithoutRequestsIsOneLine: an endpoint no run sent a
// request in its compared seconds (the demo's one reset before the hold)
// reads as one line, not a table of zeros, dashes and a footnote.
func TestAnEndpointWithoutRequestsIsOneLine(t *testing.T) {
	r := comparison(t, "compare")
	zero := make([]compare.Value, len(r.Groups))
	for i := range zero {
		zero[i] = compare.Value{Has: true}
	}
	r.Rows = append(r.Rows, compare.Row{Name: "reset · POST /coupons/reset", Lines: []compare.Line{
		{Metric: compare.TPS, Values: zero}, {Metric: compare.P95, Values: make([]compare.Value, len(r.Groups))}}})
	for _, tc := range []struct {
		name  string
		write func(*bytes.Buffer, *compare.Report) error
		want  string
	}{
		{"text", func(b *bytes.Buffer, r *compare.Report) error { return WriteCompareText(b, r) },
			"reset · POST /coupons/reset: no request in any run's compared seconds\n"},
		{"markdown", func(b *bytes.Buffer, r *compare.Report) error { return WriteCompareMarkdown(b, r) },
			"### reset · POST /coupons/reset\n\nno request in any run's compared seconds\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := tc.write(&b, r); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(b.String(), tc.want) || strings.Contains(b.String(), "the baseline's figure is 0") {
				t.Errorf("the idle endpoint is not one line %q:\n%s", tc.want, b.String())
			}
		})
	}
}

// TestCompareNamesEachRunsLabels: a road of fixes is compared by the runs'
// labels (run --tag fix=…), which the s35 trial found nowhere in compare.
func TestCompareNamesEachRunsLabels(t *testing.T) {
	r := comparison(t, "compare")
	r.Runs[0].Tags = map[string]string{"fix": "pool-8", "commit": "a1b2"}
	writers := map[string]func(*bytes.Buffer) error{
		"text":     func(b *bytes.Buffer) error { return WriteCompareText(b, r) },
		"markdown": func(b *bytes.Buffer) error { return WriteCompareMarkdown(b, r) },
		"html":     func(b *bytes.Buffer) error { return WriteCompareHTML(b, r) },
	}
	for name, write := range writers {
		var b bytes.Buffer
		if err := write(&b); err != nil {
			t.Fatal(err)
		}
		if want := r.Runs[0].Name + " commit=a1b2 fix=pool-8"; !strings.Contains(b.String(), want) {
			t.Errorf("%s lacks %q", name, want)
		}
		if strings.Count(b.String(), "fix=pool-8") != strings.Count(b.String(), "commit=a1b2") {
			t.Errorf("%s: labels apart", name)
		}
	}
}
