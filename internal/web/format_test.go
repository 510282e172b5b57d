package web

import (
	"context"
	"encoding/json"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/units"
)

// TestScriptsFormatLikeUnits runs charts.js's formatters in node and holds
// them to internal/units, so that a figure the dashboard's script writes
// reads as the same figure written by Go on report.html. Values that are
// exact binary halves at a rounding digit are left out: Go rounds them to
// even, JavaScript's toFixed up, and no measured figure lands on one.
func TestScriptsFormatLikeUnits(t *testing.T) {
	node := needNode(t)
	type fmtCase struct {
		Fn   string  `json:"fn"`
		V    float64 `json:"v"`
		Want string  `json:"-"`
	}
	var cases []fmtCase
	for _, v := range []float64{0, 0.0004, 0.95, 0.9997, 2.345, 9.996, 23.46, 99.96, 235, 999.6, 1250, 59996, 65_000, 600_000, 5_400_000, 3_723_000, -30} {
		cases = append(cases, fmtCase{"fmtMs", v, units.DurationMillis(v)})
	}
	for _, v := range []float64{0, 3700.4, 1234567, -1234.6, 99.96, 12.34, 12, 1.5, 1.234, 0.5, 0.0123, 0.000123, -0.0001} {
		cases = append(cases, fmtCase{"fmtNum", v, units.Number(v)})
	}
	for _, v := range []float64{0, 999, 1000, 1234567, 3700.4} {
		cases = append(cases, fmtCase{"fmtCount", v, units.Round(v)})
	}
	for _, v := range []float64{0, 0.0123, 0.0005, 0.1313, 1} {
		cases = append(cases, fmtCase{"fmtPct", v, units.Percent(v)})
	}
	for _, v := range []float64{0, 0.923, 0.45, 0.0123, 0.0001234} {
		cases = append(cases, fmtCase{"fmtShare", v, units.Share(v)})
	}
	for _, v := range []float64{1, 2.5, 0.75} {
		cases = append(cases, fmtCase{"fmtCores", v, units.Cores(v)})
	}
	for _, v := range []float64{0, 512, 1234, 3_400_000, 999_960, 2_500_000_000_000} {
		cases = append(cases, fmtCase{"fmtBytes", v, units.Bytes(int64(v))})
	}
	for _, v := range []float64{0, 12, 75, 3723} {
		cases = append(cases, fmtCase{"fmtElapsed", v, units.Clock(int(v))})
	}
	var got []string
	callLL(t, node, cases, "v", &got, len(cases))
	for i, c := range cases {
		if got[i] != c.Want {
			t.Errorf("LL.%s(%v) = %q, units says %q", c.Fn, c.V, got[i], c.Want)
		}
	}
}

// TestAxisTicksReadTheirValues runs LL.ticks in node: an axis's labels
// carry as many decimals as the ticks' step needs, so that no two read the
// same and each reads its own value, in the unit the largest tick reaches.
func TestAxisTicksReadTheirValues(t *testing.T) {
	node := needNode(t)
	cases := []struct {
		Fn   string    `json:"fn"`
		Vals []float64 `json:"vals"`
		Want []string  `json:"-"`
	}{
		{"numTicks", []float64{0, 0.05, 0.1, 0.15, 0.2, 0.25}, []string{"0", "0.05", "0.1", "0.15", "0.2", "0.25"}},
		{"numTicks", []float64{0, 0.025, 0.05, 0.075}, []string{"0", "0.025", "0.05", "0.075"}},
		{"numTicks", []float64{0.1, 0.2, 0.30000000000000004}, []string{"0.1", "0.2", "0.3"}},
		{"numTicks", []float64{0, 2500, 5000, 7500, 10000}, []string{"0", "2.5k", "5k", "7.5k", "10k"}},
		{"numTicks", []float64{0, 20, 40}, []string{"0", "20", "40"}},
		{"numTicks", []float64{0, 1e6, 2e6}, []string{"0", "1M", "2M"}},
		{"msTicks", []float64{2.05, 2.1, 2.15}, []string{"2.05ms", "2.1ms", "2.15ms"}},
		{"msTicks", []float64{0, 0.25, 0.5}, []string{"0", "250µs", "500µs"}},
		{"msTicks", []float64{0, 1250, 2500}, []string{"0", "1.25s", "2.5s"}},
		{"bytesTicks", []float64{1000, 1050, 1100}, []string{"1 kB", "1.05 kB", "1.1 kB"}},
	}
	var got [][]string
	callLL(t, node, cases, "vals", &got, len(cases))
	for i, c := range cases {
		if strings.Join(got[i], " | ") != strings.Join(c.Want, " | ") {
			t.Errorf("LL.%s(%v) = %q, want %q", c.Fn, c.Vals, got[i], c.Want)
		}
	}
}

// callLL runs charts.js in node and calls window.LL[c.fn](c[arg]) for each
// of cases, decoding the n results into got.
func callLL(t *testing.T, node string, cases any, arg string, got any, n int) {
	t.Helper()
	in, err := json.Marshal(cases)
	if err != nil {
		t.Fatal(err)
	}
	script := "var window = {};\n" + chartsJS + "\nvar cases = " + string(in) + ";\n" +
		"process.stdout.write(JSON.stringify(cases.map(function (c) { return window.LL[c.fn](c[" + strconv.Quote(arg) + "]); })));\n"
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "-")
	cmd.Stdin = strings.NewReader(script)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	var results []json.RawMessage
	if err := json.Unmarshal(out, &results); err != nil || len(results) != n {
		t.Fatalf("node wrote %q (%v), want %d results", out, err, n)
	}
	if err := json.Unmarshal(out, got); err != nil {
		t.Fatalf("node wrote %q: %v", out, err)
	}
}
