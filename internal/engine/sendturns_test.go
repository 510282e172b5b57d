package engine

import (
	"bytes"
	"context"
	"net"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"
)

// TestSendTurnsReadResponsesFirst holds that VUs whose think time ended
// late start a few at a time, with the responses that came in meanwhile
// read between them: on one P the runtime polls the network only when no
// goroutine is runnable, so without the turnstile a response ready while
// 256 VUs are due is read after all of them have run.
func TestSendTurnsReadResponsesFirst(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	const vus = 256
	for _, tc := range []struct {
		name    string
		turns   bool
		maxRead int // VUs run before the response is read, at most
		minRead int // and at least
	}{
		{"turnstile", true, 3 * turnBatch, 0},
		{"each VU at once", false, vus, vus / 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			client, server := tcpPair(t)
			var mu sync.Mutex
			ran, readAfter := 0, -1
			all := make(chan struct{})
			read := make(chan struct{})
			note := func() {
				mu.Lock()
				defer mu.Unlock()
				if ran++; ran == vus {
					close(all)
				}
			}
			go func() { // a VU waiting for its response in the network poller
				defer close(read)
				var b [1]byte
				if _, err := client.Read(b[:]); err != nil {
					t.Error(err)
				}
				mu.Lock()
				readAfter = ran
				mu.Unlock()
			}()
			waitParked(t, "net.(*conn).Read")
			turns := newSendTurns(tc.turns)
			if tc.turns && turns == nil {
				t.Skip("no eventfd on this platform")
			}
			defer turns.close()
			if turns != nil {
				turns.start = func(*closedVU) { go note() }
			}
			if _, err := server.Write([]byte{1}); err != nil { // the response arrives
				t.Fatal(err)
			}
			now := time.Now()
			for range vus { // their think times all ended 2 ms ago
				c := &closedVU{ctx: context.Background()}
				if !turns.wait(c, now.Add(-2*time.Millisecond), now) {
					go note()
				}
			}
			select {
			case <-all:
			case <-time.After(10 * time.Second):
				t.Fatal("the VUs did not all run")
			}
			<-read
			t.Logf("the response was read after %d of %d VUs ran", readAfter, vus)
			if raceEnabled && !tc.turns {
				return // the race detector's scheduler yields at random: the premise is the plain runtime's
			}
			if readAfter < tc.minRead || readAfter > tc.maxRead {
				t.Errorf("the response was read after %d VUs ran, want %d–%d", readAfter, tc.minRead, tc.maxRead)
			}
		})
	}
}

// tcpPair returns the two ends of a connection on 127.0.0.1.
func tcpPair(t *testing.T) (client, server net.Conn) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	client, err = net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	if server, err = ln.Accept(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { client.Close(); server.Close() })
	return client, server
}

// waitParked waits, for at most 5 s, until a goroutine waits in fn.
func waitParked(t *testing.T, fn string) {
	t.Helper()
	buf := make([]byte, 1<<20)
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); {
		if n := runtime.Stack(buf, true); bytes.Contains(buf[:n], []byte(fn)) {
			return
		}
		runtime.Gosched()
	}
	t.Fatalf("no goroutine waits in %s", fn)
}

// TestSendTurnsRunEachVUOnce holds that the turnstile runs each waiting VU
// once, in order, and none that a wake ran already: a VU woken while it
// waited (its parked swapped to 0) is skipped, and one that waits again
// while still listed keeps its place instead of being listed twice.
func TestSendTurnsRunEachVUOnce(t *testing.T) {
	// One P: the turnstile's loop runs only once this goroutine waits below.
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	for _, tc := range []struct {
		name  string
		woken []int // VUs a wake runs while they wait
		again []int // VUs that, woken, wait again before their turn
		want  []int // the VUs the turnstile runs, in order
	}{
		{"all wait", nil, nil, []int{0, 1, 2, 3, 4}},
		{"woken are skipped", []int{1, 3}, nil, []int{0, 2, 4}},
		{"waiting again keeps the place", []int{1}, []int{1}, []int{0, 1, 2, 3, 4}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			turns := newSendTurns(true)
			if turns == nil {
				t.Skip("no eventfd on this platform")
			}
			defer turns.close()
			vus := make([]*closedVU, 5)
			index := map[*closedVU]int{}
			var mu sync.Mutex
			var ran []int
			done := make(chan struct{})
			turns.start = func(c *closedVU) {
				mu.Lock()
				defer mu.Unlock()
				ran = append(ran, index[c])
				if len(ran) == len(tc.want) {
					close(done)
				}
			}
			now := time.Now()
			late := now.Add(-2 * time.Millisecond)
			for i := range vus {
				vus[i] = &closedVU{ctx: context.Background()}
				index[vus[i]] = i
			}
			for _, c := range vus {
				if !turns.wait(c, late, now) {
					t.Fatal("a late VU did not wait")
				}
			}
			for _, i := range tc.woken {
				if !vus[i].parked.CompareAndSwap(1, 0) {
					t.Fatalf("VU %d was not parked", i)
				}
			}
			for _, i := range tc.again {
				turns.wait(vus[i], late, now)
			}
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("the turnstile did not run the VUs")
			}
			mu.Lock()
			defer mu.Unlock()
			if !slices.Equal(ran, tc.want) {
				t.Errorf("ran %v, want %v", ran, tc.want)
			}
			if n := turns.listed.Load(); n != 0 {
				t.Errorf("%d VUs still listed", n)
			}
		})
	}
}
