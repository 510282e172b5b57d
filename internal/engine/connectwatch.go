package engine

import (
	"cmp"
	"net"
	"sync"
	"syscall"
	"time"
)

// connectWatch times a gate-admitted VU's new connection, from its dial to
// its first request's writing: each grace it finds the VU waiting for its
// peer, it leaves the gate. A dial still under way waits for its SYN-ACK
// (a full accept queue, a black-holed address); a connection that has
// sent bytes and received none waits for an answer that may never come
// (a Client Hello or a WebSocket upgrade request to a server that accepts
// and says nothing). Either waits in the network poller, not for a CPU,
// and held its place until the handshake's timeout (30 s) with every VU
// behind it. A handshake busy on the CPU (its Client Hello not yet
// written, or the server's answer arrived and not yet processed) keeps its
// place: the kernel's counts tell one from the other, whatever the
// goroutines' scheduling on a busy generator.
type connectWatch struct {
	v    *vu
	g    *startGate
	mu   sync.Mutex
	t    *time.Timer
	conn net.Conn // nil while the dial is under way
}

// gateDial is the clients' hook as a dial starts (dialHook): when v holds
// a place in the start gate, it watches the connection (connectWatch). It
// returns what to tell of the connection once dialled, nil when v holds
// none (every dial after its first request: a plain read).
func (v *vu) gateDial() (dialled func(net.Conn)) {
	g := v.gate.Load()
	if g == nil {
		return nil
	}
	w := &connectWatch{v: v, g: g}
	w.mu.Lock()
	w.t = time.AfterFunc(w.grace(), w.check)
	w.mu.Unlock()
	return w.dialled
}

func (w *connectWatch) grace() time.Duration { return cmp.Or(w.g.grace, startDialGrace) }

// dialled is told the connection dialled, before its TLS handshake.
func (w *connectWatch) dialled(c net.Conn) {
	w.mu.Lock()
	w.conn = c
	w.mu.Unlock()
}

// check runs each grace until the VU has left the gate (written, waiting,
// its request ended): it leaves the gate for a VU waiting for its peer.
func (w *connectWatch) check() {
	if w.v.gate.Load() != w.g {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.conn == nil || peerSilent(w.conn) {
		w.v.leaveGate()
		return
	}
	w.t.Reset(w.grace())
}

// peerSilent reports whether c has sent bytes and received none, as the
// kernel counts them; false when it cannot tell (a closed connection, a
// platform without the counts: a handshake holds its place, as before).
func peerSilent(c net.Conn) bool {
	for range 4 { // the wrappers: countedConn, protocol's counted connection
		switch x := c.(type) {
		case syscall.Conn:
			rc, err := x.SyscallConn()
			return err == nil && socketSilent(rc)
		case interface{ NetConn() net.Conn }:
			c = x.NetConn()
		default:
			return false
		}
	}
	return false
}
