package e2e

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/loadlens/loadlens/internal/testkit"
)

// Two CI jobs record their runs in one PostgreSQL at the same time (`run
// --store`, into a store neither has made yet); `history --store` on a
// third machine, with no results folder, lists them all with their labels.
// A --store that is not a PostgreSQL URL is refused before anything runs.
func TestHistoryStoreTwoWriters(t *testing.T) {
	dsn := testkit.StartPostgres(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer srv.Close()
	var wg sync.WaitGroup
	results := make([]result, 4)
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = loadlens(t, t.TempDir(), "run", srv.URL+"/", "--rate", "20", "--duration", "1s", "--quiet",
				"--name", "shared", "--tag", fmt.Sprintf("job=j%d", i), "--store", dsn)
		}()
	}
	wg.Wait()
	for i, r := range results {
		if r.code != 0 {
			t.Fatalf("run %d exit %d\n%s%s", i, r.code, r.stdout, r.stderr)
		}
	}
	r := loadlens(t, t.TempDir(), "history", "shared", "--store", dsn)
	if r.code != 0 || !strings.Contains(r.stdout, "shared · 4 runs") {
		t.Fatalf("history --store exit %d, want 0 and 4 runs\n%s%s", r.code, r.stdout, r.stderr)
	}
	for i := range results {
		if !strings.Contains(r.stdout, fmt.Sprintf("job=j%d", i)) {
			t.Errorf("history --store lacks job=j%d:\n%s", i, r.stdout)
		}
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--store", "mysql://x"}, "PostgreSQL URL"},
		{[]string{"--store", dsn, "--no-metrics"}, "--no-metrics does not keep"},
		{[]string{"--tag", "no-equals"}, "want key=value"},
	} {
		args := append([]string{"run", srv.URL + "/"}, tc.args...)
		if r := loadlens(t, t.TempDir(), args...); r.code != 2 || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("run %v: exit %d, want 2 saying %q\n%s", tc.args, r.code, tc.want, r.stderr)
		}
	}
}
