package capacityrun

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/app"
	"github.com/loadlens/loadlens/internal/capacity"
)

// Flags that cannot work are bad usage: refused with one line and exit 2
// before a step runs, a line is printed or a file is written.
func TestCapacityRefusesBadFlagsBeforeRunning(t *testing.T) {
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { hits.Add(1) }))
	t.Cleanup(srv.Close)
	p := parseTest(t, `
base_url: `+srv.URL+`
thresholds:
  http_req_duration: ["p(95) < 100ms"]
scenarios:
  s:
    rate: 10
    duration: 10s
    flow:
      - get: /
`)
	ok := capacity.Config{StartRate: 10, Hold: 4 * time.Second, Budget: time.Minute}
	tests := []struct {
		name string
		edit func(*capacity.Config)
		want string
	}{
		{"budget below hold", func(c *capacity.Config) { c.Budget = 2 * time.Second }, "the budget 2s is shorter than one step's hold 4s"},
		{"factor and step", func(c *capacity.Config) { c.Factor, c.Increment = 2, 5 }, "give a step factor or an increment, not both"},
		{"factor of 1", func(c *capacity.Config) { c.Factor = 1 }, "the step factor 1 must be above 1"},
		{"max below start", func(c *capacity.Config) { c.MaxRate = 5 }, "the max rate 5 is below the start rate 10"},
		{"negative start", func(c *capacity.Config) { c.StartRate = -1 }, "the start rate -1 must be above 0"},
		{"negative precision", func(c *capacity.Config) { c.Precision = -0.1 }, "limits cannot be negative"},
		{"negative max-cpu", func(c *capacity.Config) { c.MaxCPU = -0.5 }, "limits cannot be negative"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := ok
			tt.edit(&cfg)
			dir := t.TempDir()
			var out bytes.Buffer
			res, err := Capacity(context.Background(), CapacityConfig{Plan: p, ResultsDir: dir, Out: &out, Search: cfg})
			if err == nil || !strings.Contains(err.Error(), tt.want) || !errors.Is(err, app.ErrUsage) || res.ExitCode != app.ExitBadInput {
				t.Fatalf("exit %d, err %v; want exit %d and a usage error saying %q", res.ExitCode, err, app.ExitBadInput, tt.want)
			}
			if out.Len() > 0 {
				t.Errorf("printed %q before refusing", out.String())
			}
			if entries, _ := os.ReadDir(dir); len(entries) > 0 {
				t.Errorf("wrote %d entries under the results folder (%s…) before refusing", len(entries), entries[0].Name())
			}
		})
	}
	if n := hits.Load(); n > 0 {
		t.Errorf("the target got %d requests from searches that should not have started", n)
	}
}
