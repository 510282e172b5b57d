// Package otlp receives the spans a target exports during a run, over
// OTLP/HTTP in protobuf or JSON (and OTLP/gRPC), and hands them over as
// spans.Span. What it reads and keeps is bounded whatever is sent to it:
// request bodies, concurrent decodes, and the spans kept per endpoint.
package otlp

import (
	"context"
	"fmt"
	"mime"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/loadlens/loadlens/internal/access"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/spans"
)

// Path is where OTLP/HTTP exporters send traces.
const Path = "/v1/traces"

// DefaultBytes bounds the memory the kept spans hold, strings included,
// unless Options say otherwise.
const DefaultBytes = 128 << 20

// The answer to an export taken whole: an ExportTraceServiceResponse with
// an empty partial_success, as the collector writes it in each encoding.
var (
	jsonResponse  = []byte(`{"partialSuccess":{}}`)
	protoResponse = []byte{0x0a, 0x00}
)

// Options are a receiver's bounds and token.
type Options struct {
	Spans int   // spans kept at most
	Bytes int64 // memory the kept spans may hold at most; 0: DefaultBytes
	// Token is required of every export (Authorization: Bearer). "": none
	// on loopback; on an address other hosts can reach, one is made up.
	Token string
}

// Stats is what the receiver took in.
type Stats struct {
	Exports  int // export requests accepted
	Rejected int // export requests refused: bad encoding or content type, too large, busy, no token
	Spans    int // spans kept (of the run's traces, or waiting to be known as such)
	Dropped  int // spans of the run's traces beyond the bounds, not kept
	Foreign  int // spans of traces not the run's: counted and dropped
	// Impossible counts spans dropped for their times: an end before the
	// start, or a start, end or length far outside the run.
	Impossible int
}

// Receiver is an OTLP trace receiver that keeps the spans of the run's
// traces, within bounds.
type Receiver struct {
	ln       net.Listener
	srv      *http.Server
	token    string
	slots    chan struct{} // one per decode that may run at once
	slotWait time.Duration // how long an export waits for a slot
	done     chan struct{}

	mu   sync.Mutex
	st   store
	last time.Time // when the latest export arrived

	stopGRPC func() // stops the gRPC server; nil when none runs
}

// Listen starts a receiver on addr (host:port; port 0 picks a free one).
// On an address other hosts can reach it requires a token: o.Token, or
// one made up (Token returns it).
func Listen(addr string, o Options) (*Receiver, error) {
	if o.Token != "" {
		if err := CheckToken(o.Token); err != nil {
			return nil, fmt.Errorf("OTLP receiver: %w", err)
		}
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("OTLP receiver: %w", err)
	}
	r := newReceiver(o)
	r.ln = ln
	if r.token == "" && !access.IsLoopback(ln.Addr()) {
		r.token = access.NewToken()
	}
	mux := http.NewServeMux()
	mux.HandleFunc(Path, r.export)
	r.srv = &http.Server{Handler: r.guard(mux), ReadHeaderTimeout: 10 * time.Second, ReadTimeout: bodyTimeout, MaxHeaderBytes: 64 << 10}
	go func() {
		defer close(r.done)
		_ = r.srv.Serve(ln) // returns when Close is called
	}()
	return r, nil
}

// newReceiver returns a receiver with o's bounds and token, listening nowhere yet.
func newReceiver(o Options) *Receiver {
	if o.Bytes <= 0 {
		o.Bytes = DefaultBytes
	}
	r := &Receiver{token: o.Token, slots: make(chan struct{}, decodeSlots), slotWait: slotWait, done: make(chan struct{})}
	r.st = store{maxSpans: o.Spans, maxBytes: o.Bytes}
	r.st.reset(Join{})
	return r
}

// Addr returns the address the receiver listens on.
func (r *Receiver) Addr() string { return r.ln.Addr().String() }

// Endpoint returns the URL an exporter's OTEL_EXPORTER_OTLP_ENDPOINT takes.
func (r *Receiver) Endpoint() string { return "http://" + r.Addr() }

// Token returns the token every export must carry; "" when none is needed.
func (r *Receiver) Token() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.token
}

// Close stops the receiver, letting exports under way finish for up to a second.
func (r *Receiver) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	err := r.srv.Shutdown(ctx)
	if err != nil {
		err = r.srv.Close()
	}
	<-r.done
	r.mu.Lock()
	stop := r.stopGRPC
	r.mu.Unlock()
	if stop != nil {
		stop()
	}
	return err
}

// Join tells the receiver the run's traces: from now on it keeps only their
// spans, each endpoint within an equal share of the bytes.
func (r *Receiver) Join(j Join) {
	r.mu.Lock()
	defer r.mu.Unlock()
	before, stats := append(r.st.kept, pendingSpans(r.st.waiting)...), r.st.stats
	r.st.reset(j)
	r.st.stats = Stats{Exports: stats.Exports, Rejected: stats.Rejected}
	r.st.add(before, time.Now()) // spans that came before: judged as the later ones
}

// pendingSpans returns the spans of ps.
func pendingSpans(ps []pending) []spans.Span {
	out := make([]spans.Span, len(ps))
	for i := range ps {
		out[i] = ps[i].s
	}
	return out
}

// Spans returns the spans kept and the receiver's counts. With a Join, the
// spans still waiting for their trace to be known are settled: kept when
// their trace is the run's, counted as foreign otherwise.
func (r *Receiver) Spans() ([]spans.Span, Stats) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.st.join.Lookup != nil {
		r.st.resolve(time.Now(), true)
	}
	st := r.st.stats
	st.Spans = len(r.st.kept) + len(r.st.waiting)
	kept := append(r.st.kept[:len(r.st.kept):len(r.st.kept)], pendingSpans(r.st.waiting)...)
	return kept, st
}

// Quiet reports how long ago the latest export arrived (the receiver's
// age when none has), and how many spans are kept.
func (r *Receiver) Quiet(now time.Time) (time.Duration, int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return now.Sub(r.last), len(r.st.kept) + len(r.st.waiting)
}

// export handles one OTLP/HTTP export request, as the OTLP specification
// says: protobuf or JSON, optionally gzip-compressed, answered in kind.
func (r *Receiver) export(w http.ResponseWriter, req *http.Request) {
	if req.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		http.Error(w, "OTLP exports are POSTed", http.StatusMethodNotAllowed)
		return
	}
	ctype, _, _ := mime.ParseMediaType(req.Header.Get("Content-Type"))
	if ctype != "application/x-protobuf" && ctype != "application/json" {
		r.reject()
		http.Error(w, "Content-Type must be application/x-protobuf or application/json", http.StatusUnsupportedMediaType)
		return
	}
	if status, err := r.decode(w, req, ctype); err != nil {
		r.reject()
		if status == http.StatusServiceUnavailable {
			w.Header().Set("Retry-After", "1")
		}
		http.Error(w, err.Error(), status)
		return
	}
	w.Header().Set("Content-Type", ctype)
	if ctype == "application/json" {
		_, _ = w.Write(jsonResponse)
	} else {
		_, _ = w.Write(protoResponse)
	}
}

func (r *Receiver) reject() {
	r.mu.Lock()
	r.st.stats.Rejected++
	r.mu.Unlock()
}

// keep stores spans of an export, within the bounds.
func (r *Receiver) keep(ss []spans.Span) {
	if len(ss) == 0 {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.last = time.Now()
	r.st.add(ss, r.last)
}

// exported counts an export whose spans were all kept (within the bounds).
func (r *Receiver) exported() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.st.stats.Exports++
	r.last = time.Now()
}

// Has reports whether a span of the trace has arrived.
func (r *Receiver) Has(id sample.TraceID) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.st.traces[id] > 0
}

// Reset forgets the spans, counts and join so far, for a receiver that
// serves several runs in turn.
func (r *Receiver) Reset() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.st.reset(Join{})
	r.last = time.Time{}
}
