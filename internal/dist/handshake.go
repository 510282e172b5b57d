package dist

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/loadlens/loadlens/internal/units"
)

// authenticate reads a connection's hello, within the handshake deadline
// and in a frame of at most maxHello bytes, and checks its token, then its
// build. A connection that fails is told why (the build only once the token
// is right) and false is returned; the deadline stays for the welcome.
func authenticate(cfg *AgentConfig, nc net.Conn) bool {
	wait := cfg.helloWait
	if wait <= 0 {
		wait = helloWait
	}
	_ = nc.SetDeadline(time.Now().Add(wait))
	h, err := readHello(nc)
	var logged, told string
	switch {
	case err != nil:
		logged, told = helloErr(err, wait), "the first message must present the token"
		var big *oversizeError
		if errors.As(err, &big) {
			told = "the first message must present the token, in at most " + units.Size(int64(big.limit))
		}
	case h.Token == "":
		logged, told = "no token", "a token is required"
	case !tokenMatches(h.Token, cfg.Token):
		logged, told = "wrong token", "wrong token"
	case !cfg.build.sameAs(h.Build):
		logged = mismatch(cfg.build, h.Build)
		told = logged
	default:
		return true
	}
	fmt.Fprintf(cfg.Out, "agent: refused %s: %s\n", nc.RemoteAddr(), logged)
	refuse(nc, told)
	return false
}

// readHello reads the first frame, which must be a hello of at most
// maxHello bytes, straight off r: nothing is buffered or allocated for a
// claim beyond that, and nothing past the frame is read.
func readHello(r io.Reader) (hello, error) {
	var h hello
	f, err := readFrame(r, maxHello)
	if err != nil {
		return h, err
	}
	if f.kind != kindHello {
		return h, fmt.Errorf("protocol: the first frame is a %q, not a hello", f.kind)
	}
	if err := json.Unmarshal(f.body, &h); err != nil {
		return h, fmt.Errorf("protocol: a bad hello: %w", err)
	}
	return h, nil
}

// helloErr words why no hello was read.
func helloErr(err error, wait time.Duration) string {
	switch {
	case errors.Is(err, os.ErrDeadlineExceeded):
		return "no token within " + units.Duration(wait)
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, net.ErrClosed):
		return "it hung up (or was closed for a newer connection) before presenting the token"
	}
	return err.Error()
}

// waiting holds the connections that have not presented the token yet, at
// most max. One more closes the one that has waited longest: strangers who
// never send a token cannot keep the agent's door shut, and a coordinator,
// which sends its token as soon as it connects, is never the oldest for long.
type waiting struct {
	mu    sync.Mutex
	max   int
	conns []net.Conn // oldest first
}

// enter adds a connection, closing the oldest when max are waiting.
func (w *waiting) enter(nc net.Conn) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.conns) >= w.max {
		_ = w.conns[0].Close() // its read fails, and authenticate turns it away
		w.conns = slices.Delete(w.conns, 0, 1)
	}
	w.conns = append(w.conns, nc)
}

// leave removes a connection that is done waiting, authenticated or not.
func (w *waiting) leave(nc net.Conn) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if i := slices.Index(w.conns, nc); i >= 0 {
		w.conns = slices.Delete(w.conns, i, i+1)
	}
}
