package report

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loadlens/loadlens/internal/compare"
	"github.com/loadlens/loadlens/internal/metrics"
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
			"-12.5 req/s (not tested: fewer than 10 compared seconds)"},
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
