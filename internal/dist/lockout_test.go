package dist

import (
	"encoding/binary"
	"fmt"
	"net"
	"runtime"
	"testing"
	"time"
)

// strangers are connections to an agent that never present the token,
// held open for the whole test, as an attacker (or a port scanner) does.
type stranger func(t *testing.T, addr string) net.Conn

// silent connects and says nothing.
func silent(t *testing.T, addr string) net.Conn {
	t.Helper()
	nc, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { nc.Close() })
	return nc
}

// halfFrame connects and sends a hello header promising a body it never sends.
func halfFrame(t *testing.T, addr string) net.Conn {
	nc := silent(t, addr)
	var hdr [5]byte
	hdr[0] = kindHello
	binary.BigEndian.PutUint32(hdr[1:], 100)
	if _, err := nc.Write(append(hdr[:], `{"tok`...)); err != nil {
		t.Fatal(err)
	}
	return nc
}

// TestStrangersDoNotLockOutTheCoordinator holds connections that never
// authenticate open beside a real coordinator's run: the agent serves the
// coordinator (it is busy only for someone who presented the token), and
// more strangers than it keeps waiting cannot crowd it out either.
func TestStrangersDoNotLockOutTheCoordinator(t *testing.T) {
	srv, count := countingServer(t, nil)
	path := writeTest(t, fmt.Sprintf("name: lockout\nbase_url: %s\nscenarios:\n  s:\n    iterations: 3\n    flow:\n      - get: /lock\n", srv.URL), nil)
	for _, tc := range []struct {
		name string
		n    int
		how  stranger
	}{
		{"one silent connection", 1, silent},
		{"a half-sent hello", 1, halfFrame},
		{"more silent connections than the agent keeps waiting", maxUnauthenticated + 8, silent},
	} {
		t.Run(tc.name, func(t *testing.T) {
			agents := startAgents(t, 1, token, nil)
			for range tc.n {
				tc.how(t, agents[0].addr)
			}
			before := count("/lock")
			if _, out, err := coordinateTest(t, Config{TestFile: path, Agents: addrsOf(agents), Token: token}); err != nil {
				t.Fatalf("a coordinator beside %d strangers: %v\n%s", tc.n, err, out)
			}
			if got := count("/lock") - before; got != 3 {
				t.Fatalf("the server got %d requests, want 3", got)
			}
		})
	}
}

// TestAHugeFirstFrameCostsNothing sends, before any token, frame headers
// claiming the largest frame the protocol allows: the agent refuses each at
// once, without reading or allocating the body it claims.
func TestAHugeFirstFrameCostsNothing(t *testing.T) {
	agents := startAgents(t, 1, token, nil)
	const conns = 8
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for range conns {
		nc := silent(t, agents[0].addr)
		var hdr [5]byte
		hdr[0] = kindHello
		binary.BigEndian.PutUint32(hdr[1:], maxFrame)
		if _, err := nc.Write(hdr[:]); err != nil {
			t.Fatal(err)
		}
		// The agent answers why and hangs up, long before its handshake deadline.
		_ = nc.SetReadDeadline(time.Now().Add(helloWait / 2))
		c := newConn(nc)
		err := c.expect(kindWelcome, nil)
		if _, refused := err.(*refusedError); !refused {
			t.Fatalf("a %d MiB first frame: %v, want it refused at once", maxFrame>>20, err)
		}
	}
	runtime.ReadMemStats(&after)
	// Each claim was 256 MiB; what the agent allocated for all of them together is far below one.
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 16<<20 {
		t.Fatalf("%d first frames claiming %d MiB each made this process allocate %d MiB", conns, maxFrame>>20, grew>>20)
	}
}
