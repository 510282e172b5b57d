package web

import (
	"context"
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestStoreChartsAShortLastSecondsRate runs charts.js's Store in node: a
// run at 100 requests a second whose last frame covers part of its second
// charts nothing there (metrics.MinCovered) — neither its count, a drop,
// nor its count over the part, a spike — while the totals keep every
// request counted.
func TestStoreChartsAShortLastSecondsRate(t *testing.T) {
	node := needNode(t)
	tests := []struct {
		name       string
		n          int     // the last second's requests (10 of them failed)
		w          float64 // its frame's covered share; 0: whole
		wantLast   *float64
		wantErrors *float64
	}{
		{"a whole last second", 30, 0, ptr(30), ptr(10)},
		{"a last second 0.3 s long", 30, 0.3, nil, nil},
		{"a last second 0.99 s long", 99, 0.99, nil, nil},
		{"a last second 0.05 s long", 10, 0.05, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			frames := []map[string]any{
				{"t": 0, "rq": 100, "er": 0, "rx": 1000, "tx": 100, "dr": 0, "e": [][]float64{{100, 0, 1, 2, 3}}},
				{"t": 1, "rq": 100, "er": 0, "rx": 1000, "tx": 100, "dr": 0, "e": [][]float64{{100, 0, 1, 2, 3}}},
				{"t": 2, "rq": tt.n, "er": 10, "rx": 10 * tt.n, "tx": tt.n, "dr": 0, "e": [][]float64{{float64(tt.n), 10, 1, 2, 3}}, "w": tt.w},
			}
			in, _ := json.Marshal(frames)
			script := "var window = {};\n" + chartsJS + "\nvar LL = window.LL;\n" +
				`var s = new LL.Store({endpoints: [{name: "GET /", scenario: 0}], scenarios: ["s"]});
				` + string(in) + `.forEach(function (f) { s.push(f); });
				process.stdout.write(JSON.stringify({rq: s.rq, er: s.er, rx: s.rx, e: s.e[0].rq, total: s.totalRq, etotal: s.e[0].totalRq}));`
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, node, "-")
			cmd.Stdin = strings.NewReader(script)
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("node: %v", err)
			}
			var got struct {
				Rq, Er, Rx, E []*float64
				Total, Etotal float64
			}
			if err := json.Unmarshal(out, &got); err != nil {
				t.Fatalf("node wrote %q: %v", out, err)
			}
			for _, c := range []struct {
				col  string
				v    *float64
				want *float64
			}{
				{"requests/s", got.Rq[2], tt.wantLast},
				{"an endpoint's requests/s", got.E[2], tt.wantLast},
				{"errors/s", got.Er[2], tt.wantErrors},
				{"bytes received/s", got.Rx[2], scaled(tt.wantLast, 10)},
			} {
				if !same(c.v, c.want) {
					t.Errorf("%s in the last second = %s, want %s", c.col, show(c.v), show(c.want))
				}
			}
			if !same(got.Rq[0], ptr(100)) {
				t.Errorf("requests/s in a whole second = %s, want 100", show(got.Rq[0]))
			}
			if want := float64(200 + tt.n); got.Total != want || got.Etotal != want {
				t.Errorf("totals = %v and %v (the endpoint's), want the %v requests counted", got.Total, got.Etotal, want)
			}
		})
	}
}

func ptr(v float64) *float64 { return &v }

func scaled(v *float64, k float64) *float64 {
	if v == nil {
		return nil
	}
	return ptr(*v * k)
}

func same(a, b *float64) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return *a-*b < 1e-9 && *b-*a < 1e-9
}

func show(v *float64) string {
	if v == nil {
		return "null"
	}
	b, _ := json.Marshal(*v)
	return string(b)
}
