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
// and says nothing); one whose reader has waited a whole grace in one
// read, with everything the peer sent already read, waits for a peer that
// answered and stalled (a Server Hello, and the rest of the handshake
// never came). Each waits in the network poller, not for a CPU, and held
// its place until the handshake's timeout (30 s) with every VU behind it.
// A handshake busy on the CPU keeps its place (its Client Hello not yet
// written, the server's answer arrived and not yet read, or read and being
// processed, no read waiting), and so does one whose server is slow but
// sends (each read returns): the kernel's counts and the reads' tell one
// from the other, whatever the goroutines' scheduling on a busy generator.
type connectWatch struct {
	v    *vu
	g    *startGate
	mu   sync.Mutex
	t    *time.Timer
	conn net.Conn // nil while the dial is under way
	read uint64   // the connection's reads begun plus ended at the last check
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
	if w.conn == nil || peerSilent(w.conn) || w.readStalled() {
		w.v.leaveGate()
		return
	}
	w.t.Reset(w.grace())
}

// readStalled reports whether the connection's reader has been in the
// same read since the last check, a grace ago, with every byte the kernel
// received already read: it waits for its peer, which stalled. False when
// it cannot tell (a connection without a ReadGauge, a platform without
// the kernel's counts).
func (w *connectWatch) readStalled() bool {
	g, rc := gaugeOf(w.conn)
	if g == nil || rc == nil {
		return false
	}
	calls, read := g.ReadState()
	last := w.read
	w.read = calls
	if calls%2 == 0 || calls != last { // no read waiting, or another than a grace ago
		return false
	}
	_, received, ok := socketCounts(rc)
	return ok && received == uint64(read)
}

// readGauge is a connection wrapper that counts its socket reads
// (protocol.ReadGauge, h1's TLS wire).
type readGauge interface {
	ReadState() (calls uint64, bytes int64)
}

// gaugeOf returns c's read gauge and its socket, unwrapping the clients'
// wrappers; either is nil when c has none.
func gaugeOf(c net.Conn) (g readGauge, rc syscall.RawConn) {
	for range 4 { // the wrappers: countedConn, protocol's counted connection, h1's wire
		if x, ok := c.(readGauge); ok && g == nil {
			g = x
		}
		switch x := c.(type) {
		case syscall.Conn:
			if r, err := x.SyscallConn(); err == nil {
				rc = r
			}
			return g, rc
		case interface{ NetConn() net.Conn }:
			c = x.NetConn()
		default:
			return g, nil
		}
	}
	return g, nil
}

// peerSilent reports whether c has sent bytes and received none, as the
// kernel counts them; false when it cannot tell (a closed connection, a
// platform without the counts: a handshake holds its place, as before).
func peerSilent(c net.Conn) bool {
	_, rc := gaugeOf(c)
	if rc == nil {
		return false
	}
	sent, received, ok := socketCounts(rc)
	return ok && sent > 0 && received == 0
}
