package e2e

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/testkit"
)

// runSlowTarget runs loadlens at rate for duration against a server that
// answers after delay, into dir's results folder name; it adds to at the
// CPU other processes and the hypervisor took meanwhile (a timing verdict
// needs a quiet host) and returns the run's directory.
func runSlowTarget(t *testing.T, at *testkit.Attempt, dir, name string, delay time.Duration, rate, duration string) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(delay) // the target's service time
		fmt.Fprint(w, "ok")
	}))
	defer srv.Close()
	var r result
	var other float64
	stolen := stolenCores(func() {
		other = otherCores(func() []int { return nil }, func() time.Duration {
			r = loadlens(t, dir, "run", srv.URL+"/p", "--rate", rate, "--duration", duration, "--quiet", "--no-dashboard", "--results", name)
			return r.cpu
		})
	})
	at.Other, at.Stolen = max(at.Other, other), max(at.Stolen, stolen)
	if r.code != 0 {
		t.Fatalf("run exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	return onlyRunDir(t, filepath.Join(dir, name))
}
