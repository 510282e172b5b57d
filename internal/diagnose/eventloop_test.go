package diagnose

import (
	"strings"
	"testing"

	"github.com/loadlens/loadlens/internal/series"
)

// nodeProcess is a Node.js process's scrape: its CPU (cores) from second
// 10, and prom-client's nodejs_ series beside it.
func nodeProcess(cores float64) series.Set {
	return series.Set{
		mk("process_cpu_seconds_total", series.Rate, stepUp(cores, 10), "role", "app", "target", "node-app"),
		mk("nodejs_eventloop_lag_seconds", series.Gauge, pts(0, 5, repeat(0.01, 9)...), "role", "app", "target", "node-app"),
	}
}

// TestEventLoopCore: a Node.js process's limit is its event loop's one
// core, unless it ever used more than one event loop can (worker threads,
// or prom-client's cluster aggregation summing its workers).
func TestEventLoopCore(t *testing.T) {
	cases := []struct {
		name  string
		cores float64
		want  string // the title's part; "" for no finding of one core
	}{
		{"one event loop full", 0.98, "App CPU saturated: 98% of 1 core"},
		{"one event loop at half", 0.5, ""},
		{"a cluster's sum past one core: not one event loop", 1.6, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f, found := findKind(Diagnose(slowFrom(nodeProcess(tc.cores), 10)(t)), KindCPUSaturation)
			switch {
			case tc.want == "" && found && strings.Contains(title(f), "of 1 core"):
				t.Fatalf("unexpected: %s", title(f))
			case tc.want != "" && (!found || !strings.Contains(title(f), tc.want)):
				t.Fatalf("found %v %q, want %q", found, title(f), tc.want)
			}
		})
	}
}
