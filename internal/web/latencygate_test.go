package web

import (
	"context"
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestStoreLeavesNoLatencyBlank runs charts.js's Store in node: a second's
// percentiles chart only when durations stand behind them (report.Frame.n),
// so a second whose samples were sessions' ends alone charts no latency
// rather than 0 (trial B: "p50: 0s … max: 0s" for a WebSocket run), and a
// frame of a build without n still gates on its count.
func TestStoreLeavesNoLatencyBlank(t *testing.T) {
	node := needNode(t)
	tests := []struct {
		name  string
		frame map[string]any
		want  *float64 // p95 charted
	}{
		{"sessions ended, no duration", map[string]any{"t": 0, "rq": 5, "er": 0, "n": 0, "p95": 0}, nil},
		{"session lengths", map[string]any{"t": 0, "rq": 5, "er": 0, "n": 5, "p50": 900, "p95": 1500, "max": 1600}, ptr(1500)},
		{"no n: the count gates", map[string]any{"t": 0, "rq": 5, "er": 0, "p50": 8, "p95": 12, "max": 20}, ptr(12)},
		{"no n, nothing completed", map[string]any{"t": 0, "rq": 0, "er": 0, "p95": 0}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in, _ := json.Marshal(tt.frame)
			script := "var window = {};\n" + chartsJS + "\nvar LL = window.LL;\n" +
				`var s = new LL.Store({endpoints: [], scenarios: ["s"]});
				s.push(` + string(in) + `);
				process.stdout.write(JSON.stringify({p95: s.p95[0], p50: s.p50[0], max: s.max[0]}));`
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, node, "-")
			cmd.Stdin = strings.NewReader(script)
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("node: %v", err)
			}
			var got struct{ P95, P50, Max *float64 }
			if err := json.Unmarshal(out, &got); err != nil {
				t.Fatalf("node wrote %q: %v", out, err)
			}
			if !same(got.P95, tt.want) {
				t.Errorf("p95 charted = %s, want %s", show(got.P95), show(tt.want))
			}
			if (got.P50 == nil) != (tt.want == nil) || (got.Max == nil) != (tt.want == nil) {
				t.Errorf("p50 %s, max %s: want them blank exactly when p95 is", show(got.P50), show(got.Max))
			}
		})
	}
}
