package cli

import (
	"strings"
	"testing"

	"github.com/loadlens/loadlens/internal/mock"
)

func TestDescribeRouteWritesFiguresWithUnits(t *testing.T) {
	tests := []struct {
		name, route string
		want        []string // in the line
		not         []string // never in the line
	}{
		{"bandwidth in bytes per second", "get: /a\n    bandwidth: 10MB/s", []string{"bandwidth 10.0 MB/s"}, []string{"e+", "B/s;"}},
		{"slow bandwidth not rounded", "get: /s\n    bandwidth: 1.5B/s", []string{"bandwidth 1.5 B/s"}, []string{"bandwidth 2 B/s", "bandwidth 0 B/s"}},
		{"percentiles as given", "get: /b\n    latency: {percentiles: {p50: 10ms, p99: 50ms}}", []string{"percentiles p50 10ms, p99 50ms"}, []string{"p0 ", "p100"}},
		{"percentiles with their ends given", "get: /c\n    latency: {percentiles: {p0: 1ms, p50: 10ms, p100: 90ms}}", []string{"percentiles p0 1ms, p50 10ms, p100 90ms"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := mock.Parse("m.yaml", []byte("listen: 127.0.0.1:0\nroutes:\n  - "+tt.route+"\n"), nil)
			if err != nil {
				t.Fatal(err)
			}
			line := describeRoute(cfg.Routes[0])
			for _, w := range tt.want {
				if !strings.Contains(line, w) {
					t.Errorf("%q lacks %q", line, w)
				}
			}
			for _, n := range tt.not {
				if strings.Contains(line, n) {
					t.Errorf("%q has %q", line, n)
				}
			}
		})
	}
}
