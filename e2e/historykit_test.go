package e2e

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"
)

// nightlyTarget is the history tests' set-up: a target whose service time
// the test sets (30 ms until it says otherwise) and a folder where runs of
// the test "nightly" against it are kept, each labelled commit=cNN.
type nightlyTarget struct {
	t     *testing.T
	dir   string // the runs' working directory: results/ is in it
	url   string
	delay atomic.Int64
}

func newNightlyTarget(t *testing.T) *nightlyTarget {
	n := &nightlyTarget{t: t, dir: t.TempDir()}
	n.delay.Store(int64(30 * time.Millisecond))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(time.Duration(n.delay.Load())) // the service time under test, not synchronisation
	}))
	t.Cleanup(srv.Close)
	n.url = srv.URL
	return n
}

// serviceTime sets the target's service time from now on.
func (n *nightlyTarget) serviceTime(d time.Duration) { n.delay.Store(int64(d)) }

// run runs the test once, 20 requests/s for 1 s, labelled commit=c<i>.
func (n *nightlyTarget) run(i int) {
	n.t.Helper()
	r := loadlens(n.t, n.dir, "run", n.url+"/", "--rate", "20", "--duration", "1s", "--quiet", "--name", "nightly",
		"--tag", fmt.Sprintf("commit=c%02d", i))
	if r.code != 0 {
		n.t.Fatalf("run %d exit %d\n%s%s", i, r.code, r.stdout, r.stderr)
	}
}
