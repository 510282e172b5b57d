package app

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/loadlens/loadlens/internal/plan"
)

// TestNoMetricsCountLineSaysTheUnit: --no-metrics's one line counts the
// test's own unit: requests for HTTP, sessions for a ws: step (here to a
// port that refuses, so every session fails and is still counted).
func TestNoMetricsCountLineSaysTheUnit(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) }))
	defer srv.Close()
	for _, tc := range []struct {
		name, step string
		want       []string
	}{
		{"http", "get: " + srv.URL + "/", []string{"3 requests in ", " req/s), 0 failed"}},
		{"ws", "ws: ws://127.0.0.1:1/\n        duration: 1s", []string{"3 sessions in ", " sessions/s), 3 failed"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := fmt.Sprintf("scenarios:\n  s:\n    model: iterations\n    vus: 1\n    iterations: 3\n    flow:\n      - %s\n", tc.step)
			p, err := plan.Parse("t.yaml", []byte(src), nil)
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			if _, err := Run(context.Background(), RunConfig{Plan: p, ResultsDir: t.TempDir(), Out: &out, NoMetrics: true}); err != nil {
				t.Fatal(err)
			}
			for _, w := range tc.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("lacks %q: %s", w, out.String())
				}
			}
		})
	}
}
