package app

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/plan"
)

// TestHookBoundsAndInterrupts: a setup or teardown that loops ends at its
// timeout or at Ctrl-C and says how many requests it sent; a setup that
// ends so fails the run, a teardown that does leaves the scenarios'
// verdict (before, Ctrl-C in a teardown made a finished run INTERRUPTED,
// and an interrupted setup said "no load was sent" after 85,906 requests).
func TestHookBoundsAndInterrupts(t *testing.T) {
	loop := "  - repeat: 10000\n    steps:\n      - repeat: 10000\n        steps:\n          - get: /%s\n"
	cases := []struct {
		name     string
		yaml     string
		cancelAt string // the path whose third request cancels the run's ctx (Ctrl-C); "" never
		wantErr  string // a regexp; "" for none
		wantOut  string // a regexp the summary matches
		status   string
	}{
		{"setup times out", "setup_timeout: 300ms\nsetup:\n" + fmt.Sprintf(loop, "setup"), "",
			`^setup: stopped at setup_timeout \(300ms\) after [1-9][\d,]* requests? in .*; bound its loops or raise setup_timeout; the scenarios did not start$`, "", ""},
		{"setup interrupted", "setup:\n" + fmt.Sprintf(loop, "setup"), "/setup",
			`^setup: interrupted after ([3-9]|[1-9][\d,]+) requests in .*; the scenarios did not start$`, "", ""},
		{"teardown interrupted", "teardown:\n" + fmt.Sprintf(loop, "teardown"), "/teardown", "",
			`note: teardown cut short: interrupted after ([3-9]|[1-9][\d,]+) requests in [^;]*; the scenarios had ended: their figures are complete and the verdict is theirs`, StatusCompleted},
		{"teardown times out", "teardown_timeout: 300ms\nteardown:\n" + fmt.Sprintf(loop, "teardown"), "", "",
			`note: teardown cut short: stopped at teardown_timeout \(300ms\) after [1-9]`, StatusCompleted},
		{"both counted", "setup: [get: /setup]\nteardown: [get: /teardown, get: /teardown]\n", "", "",
			`note: setup: 1 request in [^,]*, not in the figures above \(they measure the scenarios\)\n(.|\n)*note: teardown: 2 requests in`, StatusCompleted},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			var hits atomic.Int64
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path == c.cancelAt && hits.Add(1) == 3 {
					cancel()
				}
			}))
			defer srv.Close()
			yaml := fmt.Sprintf("base_url: %s\n%sscenarios:\n  s: {iterations: 1, flow: [get: /x]}\n", srv.URL, c.yaml)
			res, out, err := runHooked(t, ctx, yaml)
			if c.wantErr != "" {
				if err == nil || !regexp.MustCompile(c.wantErr).MatchString(err.Error()) {
					t.Fatalf("error %v, want one matching %s", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != c.status || res.ExitCode != ExitOK {
				t.Errorf("status %s exit %d, want %s and 0", res.Status, res.ExitCode, c.status)
			}
			if !regexp.MustCompile(c.wantOut).MatchString(out) {
				t.Errorf("the summary does not match %s:\n%s", c.wantOut, out)
			}
		})
	}
}

// runHooked runs a test written into a temp dir with ctx.
func runHooked(t *testing.T, ctx context.Context, yaml string) (RunResult, string, error) {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "test.yaml")
	if err := os.WriteFile(path, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := plan.ParseFile(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	res, err := Run(ctx, RunConfig{Plan: p, ResultsDir: filepath.Join(dir, "results"), Out: &out, Quiet: true, Version: "test"})
	return res, strings.ReplaceAll(out.String(), "\n    ", " "), err
}
