package dist

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/app"
	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/store"
	"github.com/loadlens/loadlens/internal/testkit"
)

// syncBuffer is a buffer several goroutines write.
type syncBuffer = testkit.Buffer

// trackingListener keeps the connections it accepted, so a test can cut
// one as a dying agent's kernel would.
type trackingListener struct {
	net.Listener
	mu    sync.Mutex
	conns []net.Conn
}

func (l *trackingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err == nil {
		l.mu.Lock()
		l.conns = append(l.conns, c)
		l.mu.Unlock()
	}
	return c, err
}

// cut closes every connection accepted so far.
func (l *trackingListener) cut() {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, c := range l.conns {
		c.Close()
	}
}

// testAgent is an agent served in this process.
type testAgent struct {
	addr string
	ln   *trackingListener
	out  *syncBuffer
	stop context.CancelFunc
	done chan struct{} // closed when Serve returned, with err
	err  error
}

// startAgents serves n agents on 127.0.0.1 with the token, until the test ends.
func startAgents(t *testing.T, n int, token string, mod func(*AgentConfig)) []*testAgent {
	t.Helper()
	var out []*testAgent
	for range n {
		raw, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		ln := &trackingListener{Listener: raw}
		ctx, cancel := context.WithCancel(context.Background())
		a := &testAgent{addr: raw.Addr().String(), ln: ln, out: &syncBuffer{}, stop: cancel, done: make(chan struct{})}
		cfg := AgentConfig{Listener: ln, Token: token, Out: a.out, Version: "test"}
		if mod != nil {
			mod(&cfg)
		}
		go func() {
			a.err = Serve(ctx, cfg)
			close(a.done)
		}()
		t.Cleanup(func() {
			cancel()
			select {
			case <-a.done:
			case <-time.After(40 * time.Second):
				t.Errorf("agent %s did not stop within 40s", a.addr)
			}
		})
		out = append(out, a)
	}
	return out
}

func addrsOf(agents []*testAgent) []string {
	var out []string
	for _, a := range agents {
		out = append(out, a.addr)
	}
	return out
}

// writeTest writes a test file (and data files) into a temp dir.
func writeTest(t *testing.T, yaml string, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(dir, "test.yaml")
	if err := os.WriteFile(path, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// coordinateTest runs Coordinate with the test's defaults, returning the
// result and what it printed.
func coordinateTest(t *testing.T, cfg Config) (app.RunResult, string, error) {
	t.Helper()
	out := &syncBuffer{}
	cfg.Run.Out, cfg.Run.Quiet, cfg.Run.Version = out, true, "test"
	if cfg.Run.ResultsDir == "" {
		cfg.Run.ResultsDir = t.TempDir()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res, err := Coordinate(ctx, cfg)
	return res, out.String(), err
}

// readRun reads a run directory's whole run back from run.db.
func readRun(t *testing.T, dir string) *metrics.Run {
	t.Helper()
	r, err := store.Open(filepath.Join(dir, "run.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	run, err := r.Run()
	if err != nil {
		t.Fatal(err)
	}
	return run
}

// countingServer counts the requests it receives by path, and delays the
// paths given.
func countingServer(t *testing.T, delays map[string]time.Duration) (*httptest.Server, func(path string) int64) {
	t.Helper()
	var mu sync.Mutex
	counts := map[string]*atomic.Int64{}
	counter := func(p string) *atomic.Int64 {
		mu.Lock()
		defer mu.Unlock()
		c := counts[p]
		if c == nil {
			c = &atomic.Int64{}
			counts[p] = c
		}
		return c
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		counter(r.URL.Path).Add(1)
		if d := delays[r.URL.Path]; d > 0 {
			time.Sleep(d) // the target's own latency, not synchronisation
		}
		w.Write([]byte("ok"))
	}))
	t.Cleanup(srv.Close)
	return srv, func(path string) int64 {
		if path == "" {
			mu.Lock()
			defer mu.Unlock()
			var n int64
			for _, c := range counts {
				n += c.Load()
			}
			return n
		}
		return counter(path).Load()
	}
}

// totalRequests is a run's requests over every endpoint.
func totalRequests(r *metrics.Run) int64 {
	var n int64
	for i := range r.Endpoints {
		n += r.Endpoints[i].Requests
	}
	return n
}

// eventually polls cond every 20ms until it holds or the bound passes.
func eventually(t *testing.T, bound time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(bound)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %s", what, bound)
		}
		time.Sleep(20 * time.Millisecond) // polling a condition with a bounded deadline
	}
}

// parseAndListen parses the test at path and listens on a free loopback
// port, as a fake agent would; the listener closes with the test.
func parseAndListen(t *testing.T, path string) (*plan.Plan, net.Listener) {
	t.Helper()
	p, err := plan.ParseFile(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	return p, ln
}

// oneGETLayout is the layout of a test of one scenario "s" sending GET /.
func oneGETLayout() sample.Layout {
	return sample.Layout{Endpoints: []sample.EndpointInfo{{Name: "GET /"}}, Scenarios: []sample.ScenarioInfo{{Name: "s"}}}
}
