package ws

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/protocol"
	"github.com/loadlens/loadlens/internal/protocol/prototest"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/tmpl"
)

// Bounds on an idle open session, per session (issue 24: 16 KiB at
// 10,000 sessions, all told). Measured: 4 KiB of stack (16 KiB when the
// handshake ran on the VU's goroutine); 8.1 KiB allocated to open one
// (11.9 KiB when net/http wrote the upgrade request through a bufio.Writer
// of its own), whose garbage stays resident in a run without a collection.
const (
	idleStackBound = 6 << 10
	openAllocBound = 10 << 10
)

// TestIdleSessionCost opens 200 sessions against a silent server, one
// after the other as the engine's VUs would, and pins what each costs once
// idle: the goroutine stack it keeps, and the bytes allocated to open it.
// It measures in a child process of the test binary, whose only
// goroutines are its sessions' (the server runs here).
func TestIdleSessionCost(t *testing.T) {
	if url := os.Getenv(idleChildEnv); url != "" {
		stack, alloc, err := idleCost(url, 200)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Printf("idle-stack=%d open-alloc=%d\n", stack, alloc)
		return
	}
	if raceEnabled {
		t.Skip("the race detector's instrumentation takes memory of its own")
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		defer c.CloseNow()
		silent(c, r)
	}))
	defer srv.Close()
	stack, alloc := idleCostInChild(t, srv.URL)
	t.Logf("per idle session: %d B of stack, %d B allocated to open it", stack, alloc)
	if stack > idleStackBound {
		t.Errorf("an idle session keeps %d B of goroutine stack, want at most %d", stack, idleStackBound)
	}
	if alloc > openAllocBound {
		t.Errorf("opening a session allocates %d B, want at most %d", alloc, openAllocBound)
	}
}

// idleChildEnv names the server a child process of the test binary measures against.
const idleChildEnv = "LOADLENS_WSIDLE_CHILD"

// idleCostInChild runs the test again in a child process and returns what it printed.
func idleCostInChild(t *testing.T, url string) (stack, alloc uint64) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^"+regexp.QuoteMeta(t.Name())+"$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), idleChildEnv+"="+url)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the child: %v\n%s", err, out)
	}
	m := regexp.MustCompile(`idle-stack=(\d+) open-alloc=(\d+)`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("the child printed no figures:\n%s", out)
	}
	stack, _ = strconv.ParseUint(string(m[1]), 10, 64)
	alloc, _ = strconv.ParseUint(string(m[2]), 10, 64)
	return stack, alloc
}

// idleCost opens n idle sessions against url, each on its own goroutine
// and after the one before it has opened, waits until each is blocked in
// its read, and returns the goroutine stack and the bytes allocated per
// session.
func idleCost(url string, n int) (stack, alloc uint64, err error) {
	s := plan.Session{URL: tmpl.Literal(url), Timeout: time.Minute, Duration: time.Minute, MaxMessage: plan.DefaultMaxMessage,
		Checks: []plan.Check{{From: plan.FromStatus, Op: plan.OpIn, Values: []string{"101"}}}}
	st, err := Protocol{}.Prepare(&s, prototest.Env(10*time.Second))
	if err != nil {
		return 0, 0, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	defer func() { cancel(); wg.Wait() }()
	buf := make([]byte, 4<<20) // waitReading's, allocated before the count starts
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	opened := make(chan bool, 1)
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sess := st.NewSession()
			defer sess.Close()
			sess.Run(ctx, &signalVU{opened: opened}, time.Now())
		}()
		if !<-opened {
			return 0, 0, errors.New("a handshake failed")
		}
	}
	if err := waitReading(buf, n, 10*time.Second); err != nil {
		return 0, 0, err
	}
	runtime.ReadMemStats(&after)
	return (after.StackInuse - before.StackInuse) / uint64(n), (after.TotalAlloc - before.TotalAlloc) / uint64(n), nil
}

// waitReading waits, for at most limit, until n goroutines are blocked in
// a session's read, reading the goroutines' stacks into buf.
func waitReading(buf []byte, n int, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for {
		got := bytes.Count(buf[:runtime.Stack(buf, true)], []byte("ws.(*session).read("))
		if got == n {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%d of %d sessions reading after %s", got, n, limit)
		}
		runtime.Gosched()
	}
}

// signalVU says when its session's handshake is checked, and keeps
// nothing, so that what is measured is the session's.
type signalVU struct {
	tc     tmpl.Context
	opened chan<- bool
}

var _ protocol.VU = (*signalVU)(nil)

func (v *signalVU) Vars() *tmpl.Context                 { return &v.tc }
func (v *signalVU) Check(_ int32, _ time.Time, ok bool) { v.opened <- ok }
func (v *signalVU) Since(time.Time) time.Duration       { return 0 }
func (v *signalVU) Written()                            {}
func (v *signalVU) Dialing() func(net.Conn)             { return nil }
func (v *signalVU) Record(r *sample.Request) {
	if r.Kind != sample.OK && r.Kind != sample.Interrupted {
		select {
		case v.opened <- false: // a failed dial checks nothing
		default:
		}
	}
}
func (v *signalVU) Outcome(_ context.Context, err error) (sample.Kind, string) {
	return sample.Other, err.Error()
}
