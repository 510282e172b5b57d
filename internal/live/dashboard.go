package live

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"time"

	"github.com/loadlens/loadlens/internal/access"
)

const (
	// subscriberBuffer is how many events a browser may fall behind before
	// it is disconnected; its EventSource reconnects and gets the whole run.
	subscriberBuffer = 64
	// writeTimeout bounds one write to a browser that stopped reading.
	writeTimeout = 10 * time.Second
	// closeGrace is how long Close lets browsers receive the final event.
	closeGrace = 500 * time.Millisecond
)

// Dashboard serves a run's live web dashboard: a page, and a stream of
// server-sent events with the run's metadata, every second so far, then
// each new second, and the latest diagnosis whenever it changes. It deals
// in JSON it is handed and never looks inside. Publishing never blocks: a
// browser that falls behind is dropped.
type Dashboard struct {
	srv   *http.Server
	ln    net.Listener
	host  string // the host of URL
	token string // required of every request; "" on loopback without one
	page  []byte
	csp   string
	done  chan struct{} // closed when Serve returns

	mu     sync.Mutex
	meta   []byte
	frames [][]byte // the JSON of every second so far
	diag   []byte   // the latest diagnosis (JSON); nil until there is one
	table  []byte   // the latest per-endpoint table (JSON); nil until there is one
	final  []byte   // the "end" event; nil while running
	subs   map[chan []byte]struct{}
	closed bool
}

// StartDashboard listens on addr (host:port; port 0 picks a free one) and
// serves the dashboard of the run that meta (JSON) describes. A dashboard
// others can reach needs a token: the one given, or one made up here when
// addr is not a loopback address. A token given on loopback is required too.
func StartDashboard(addr string, meta []byte, token string) (*Dashboard, error) {
	if token != "" {
		if err := CheckToken(token); err != nil {
			return nil, fmt.Errorf("dashboard: %w", err)
		}
	}
	page, csp, err := dashboardPage()
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("dashboard: %w (choose another address with --dashboard-addr, or --no-dashboard)", err)
	}
	if token == "" && !access.IsLoopback(ln.Addr()) {
		token = access.NewToken()
	}
	d := &Dashboard{ln: ln, host: urlHost(addr, ln.Addr()), token: token, page: page, csp: csp, meta: meta,
		subs: map[chan []byte]struct{}{}, done: make(chan struct{})}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", d.servePage)
	mux.HandleFunc("GET /events", d.serveEvents)
	d.srv = &http.Server{Handler: d.guard(mux), ReadHeaderTimeout: 5 * time.Second}
	go func() {
		defer close(d.done)
		_ = d.srv.Serve(ln) // returns http.ErrServerClosed after Close
	}()
	return d, nil
}

// urlHost returns the host a browser should use for a dashboard asked to
// listen on addr and listening on bound: a name as given, the address
// bound, or for every interface (0.0.0.0, ::) one a browser elsewhere can
// reach.
func urlHost(addr string, bound net.Addr) string {
	host, _, _ := net.SplitHostPort(addr)
	ip := bound.(*net.TCPAddr).IP
	switch {
	case host != "" && net.ParseIP(host) == nil:
		return host
	case ip.IsUnspecified():
		return reachableHost()
	}
	return ip.String()
}

// URL returns the address to open the dashboard at, with its token when
// it has one; the page's event stream then goes by a cookie.
func (d *Dashboard) URL() string {
	u := "http://" + net.JoinHostPort(d.host, strconv.Itoa(d.ln.Addr().(*net.TCPAddr).Port)) + "/"
	if d.token != "" {
		u += "?token=" + url.QueryEscape(d.token)
	}
	return u
}

// Token returns the token every request must carry; "" when none is needed.
func (d *Dashboard) Token() string { return d.token }

// SetMeta replaces the run's metadata (JSON) that browsers connecting from
// now on receive: a run fixes its start after its dashboard is up.
func (d *Dashboard) SetMeta(meta []byte) {
	meta = bytes.Clone(meta)
	d.mu.Lock()
	d.meta = meta
	d.mu.Unlock()
}

// Publish sends one second (a JSON frame) to every browser and keeps it
// for browsers that connect later.
func (d *Dashboard) Publish(frame []byte) {
	frame = bytes.Clone(frame) // kept: the caller may reuse its buffer
	ev := sseEvent("frame", frame)
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed || d.final != nil {
		return
	}
	d.frames = append(d.frames, frame)
	d.broadcast(ev)
}

// SetDiagnosis sends the latest diagnosis of the run so far (JSON) to
// every browser, and to browsers that connect later with the history. It
// replaces the one before; after End it is ignored.
func (d *Dashboard) SetDiagnosis(diag []byte) {
	diag = bytes.Clone(diag)
	ev := sseEvent("diagnosis", diag)
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed || d.final != nil {
		return
	}
	d.diag = diag
	d.broadcast(ev)
}

// SetEndpoints sends the per-endpoint figures of the run so far (JSON) to
// every browser, and to browsers that connect later with the history. Only
// the latest matters, so unlike frames it replaces the one before and the
// history never grows by it; after End it is ignored.
func (d *Dashboard) SetEndpoints(table []byte) {
	table = bytes.Clone(table)
	ev := sseEvent("endpoints", table)
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed || d.final != nil {
		return
	}
	d.table = table
	d.broadcast(ev)
}

// End sends how the run ended (JSON) and ends every stream.
func (d *Dashboard) End(final []byte) {
	ev := sseEvent("end", final)
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed || d.final != nil {
		return
	}
	d.final = ev
	d.broadcast(ev)
}

// broadcast hands ev to every browser without waiting: one whose buffer
// is full is disconnected. d.mu must be held.
func (d *Dashboard) broadcast(ev []byte) {
	for ch := range d.subs {
		select {
		case ch <- ev:
		default:
			delete(d.subs, ch)
			close(ch)
		}
	}
}

// Close stops serving, giving browsers a moment to receive the last event.
func (d *Dashboard) Close() error {
	d.mu.Lock()
	if d.closed {
		d.mu.Unlock()
		return nil
	}
	d.closed = true
	d.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), closeGrace)
	defer cancel()
	err := d.srv.Shutdown(ctx) // waits for streams that are sending the end event
	if errors.Is(err, context.DeadlineExceeded) {
		err = d.srv.Close()
	}
	d.mu.Lock()
	for ch := range d.subs {
		delete(d.subs, ch)
		close(ch)
	}
	d.mu.Unlock()
	<-d.done
	return err
}

func (d *Dashboard) servePage(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", d.csp+"; frame-ancestors 'none'")
	h.Set("Cache-Control", "no-store")
	_, _ = w.Write(d.page)
}

// serveEvents streams the run: a "history" event with the metadata, every
// second so far, the latest diagnosis and endpoint table, then "frame",
// "diagnosis" and "endpoints" events, then one "end" event.
func (d *Dashboard) serveEvents(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	rc := http.NewResponseController(w)

	d.mu.Lock()
	meta, frames, diag, table := d.meta, d.frames, d.diag, d.table // frames only grow, and none is ever changed: safe to read unlocked
	final := d.final
	var ch chan []byte
	if final == nil && !d.closed {
		ch = make(chan []byte, subscriberBuffer)
		d.subs[ch] = struct{}{}
	}
	d.mu.Unlock()
	if ch != nil {
		defer d.unsubscribe(ch)
	}
	history := historyEvent(meta, frames, diag, table)

	send := func(ev []byte) bool {
		_ = rc.SetWriteDeadline(time.Now().Add(writeTimeout))
		if _, err := w.Write(ev); err != nil {
			return false
		}
		return rc.Flush() == nil
	}
	if !send(append([]byte("retry: 2000\n\n"), history...)) {
		return
	}
	if ch == nil {
		if final != nil {
			send(final)
		}
		return
	}
	for {
		select {
		case ev, ok := <-ch:
			if !ok || !send(ev) || bytes.HasPrefix(ev, []byte("event: end\n")) {
				return
			}
		case <-r.Context().Done():
			return
		}
	}
}

func (d *Dashboard) unsubscribe(ch chan []byte) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if _, ok := d.subs[ch]; ok {
		delete(d.subs, ch)
		close(ch)
	}
}

// historyEvent is {"meta": ..., "frames": [...]}, with "diagnosis": ...
// and "endpoints": ... when there are, built from the stored JSON without
// decoding it.
func historyEvent(meta []byte, frames [][]byte, diag, table []byte) []byte {
	var b bytes.Buffer
	b.WriteString(`{"meta":`)
	b.Write(meta)
	b.WriteString(`,"frames":[`)
	for i, f := range frames {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(f)
	}
	b.WriteByte(']')
	if diag != nil {
		b.WriteString(`,"diagnosis":`)
		b.Write(diag)
	}
	if table != nil {
		b.WriteString(`,"endpoints":`)
		b.Write(table)
	}
	b.WriteByte('}')
	return sseEvent("history", b.Bytes())
}

// sseEvent formats one server-sent event; data is JSON, which has no raw
// newlines, but any are split into data lines as the format requires.
func sseEvent(name string, data []byte) []byte {
	var b bytes.Buffer
	b.WriteString("event: " + name + "\n")
	for _, line := range bytes.Split(data, []byte("\n")) {
		b.WriteString("data: ")
		b.Write(line)
		b.WriteByte('\n')
	}
	b.WriteByte('\n')
	return b.Bytes()
}
