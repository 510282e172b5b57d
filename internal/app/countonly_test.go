package app

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/plan"
)

// TestNoMetricsRefusesThresholds: --no-metrics judges nothing, so a plan
// with thresholds (from a file, at its thresholds key, or from
// --threshold) is refused as bad input before a request is sent; one
// without runs and counts.
func TestNoMetricsRefusesThresholds(t *testing.T) {
	var served atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { served.Add(1) }))
	defer srv.Close()
	fromFile := func(t *testing.T, thresholds string) *plan.Plan {
		path := filepath.Join(t.TempDir(), "test.yaml")
		src := "base_url: " + srv.URL + "\n\n" + thresholds + "scenarios:\n  s:\n    model: iterations\n    iterations: 3\n    flow:\n      - get: /\n"
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		p, err := plan.ParseFile(path, nil)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	fromURL := func(t *testing.T, thresholds ...string) *plan.Plan {
		p, err := plan.FromURL(plan.URLOptions{URL: srv.URL + "/", VUs: 1, Duration: 200 * time.Millisecond, Thresholds: thresholds})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	tests := []struct {
		name string
		plan func(t *testing.T) *plan.Plan
		want string // the error's end; "" runs
	}{
		{"file with a latency threshold", func(t *testing.T) *plan.Plan {
			return fromFile(t, "thresholds:\n  http_req_duration: [\"p(95)<1ms\"]\n")
		}, "test.yaml:3:1: thresholds: --no-metrics measures no thresholds: drop --no-metrics or the thresholds"},
		{"file with a count threshold", func(t *testing.T) *plan.Plan {
			return fromFile(t, "thresholds:\n  http_reqs: [\"count>1\"]\n")
		}, "test.yaml:3:1: thresholds: --no-metrics measures no thresholds: drop --no-metrics or the thresholds"},
		{"URL with --threshold", func(t *testing.T) *plan.Plan { return fromURL(t, "http_req_duration: p(95)<1ms") },
			"--threshold: --no-metrics measures no thresholds: drop --no-metrics or the thresholds"},
		{"file without thresholds", func(t *testing.T) *plan.Plan { return fromFile(t, "") }, ""},
		{"URL without thresholds", func(t *testing.T) *plan.Plan { return fromURL(t) }, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := served.Load()
			var out bytes.Buffer
			res, err := Run(context.Background(), RunConfig{Plan: tc.plan(t), NoMetrics: true, Out: &out, ResultsDir: t.TempDir()})
			if tc.want == "" {
				if err != nil || res.ExitCode != ExitOK || served.Load() == before {
					t.Errorf("exit %d, err %v, %d requests served; want a run", res.ExitCode, err, served.Load()-before)
				}
				return
			}
			if err == nil || !strings.HasSuffix(err.Error(), tc.want) || ExitAfter(res.ExitCode, err) != ExitBadInput || ExitCodeOf(err) != ExitBadInput {
				t.Errorf("exit %d, err %v; want exit 2 and %q", res.ExitCode, err, tc.want)
			}
			if served.Load() != before || out.Len() != 0 {
				t.Errorf("a refused run sent %d requests and printed %q", served.Load()-before, out.String())
			}
		})
	}
}
