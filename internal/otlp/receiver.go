// Package otlp receives the spans a target exports during a run, over
// OTLP/HTTP in protobuf or JSON, and hands them over as spans.Span.
package otlp

import (
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"sync"
	"time"

	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"

	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/spans"
)

// Path is where OTLP/HTTP exporters send traces.
const Path = "/v1/traces"

// maxBody bounds one export request, decompressed.
const maxBody = 64 << 20

// Stats is what the receiver took in.
type Stats struct {
	Exports  int // export requests accepted
	Rejected int // export requests refused: bad encoding, bad content type, too large
	Spans    int // spans kept
	Dropped  int // spans beyond the bound, not kept
}

// Receiver is an OTLP/HTTP trace receiver that keeps up to a bound of spans.
type Receiver struct {
	ln    net.Listener
	srv   *http.Server
	limit int
	done  chan struct{}

	mu     sync.Mutex
	spans  []spans.Span
	traces map[sample.TraceID]bool // the traces of the kept spans
	stats  Stats
	last   time.Time // when the latest export arrived

	stopGRPC func() // stops the gRPC server; nil when none runs
}

// Listen starts a receiver on addr (host:port; port 0 picks a free one)
// keeping at most limit spans.
func Listen(addr string, limit int) (*Receiver, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("OTLP receiver: %w", err)
	}
	r := &Receiver{ln: ln, limit: limit, done: make(chan struct{}), traces: map[sample.TraceID]bool{}}
	mux := http.NewServeMux()
	mux.HandleFunc(Path, r.export)
	r.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		defer close(r.done)
		_ = r.srv.Serve(ln) // returns when Close is called
	}()
	return r, nil
}

// Addr returns the address the receiver listens on.
func (r *Receiver) Addr() string { return r.ln.Addr().String() }

// Endpoint returns the URL an exporter's OTEL_EXPORTER_OTLP_ENDPOINT takes.
func (r *Receiver) Endpoint() string { return "http://" + r.Addr() }

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

// Spans returns the spans kept so far and the receiver's counts.
func (r *Receiver) Spans() ([]spans.Span, Stats) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]spans.Span(nil), r.spans...), r.stats
}

// Quiet reports how long ago the latest export arrived (the receiver's
// age when none has).
func (r *Receiver) Quiet(now time.Time) (time.Duration, int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return now.Sub(r.last), r.stats.Spans
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
	body, err := readBody(req)
	if err != nil {
		r.reject()
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	er := ptraceotlp.NewExportRequest()
	if ctype == "application/json" {
		err = er.UnmarshalJSON(body)
	} else {
		err = er.UnmarshalProto(body)
	}
	if err != nil {
		r.reject()
		http.Error(w, "bad OTLP trace export: "+err.Error(), http.StatusBadRequest)
		return
	}
	r.keep(convert(er.Traces()))
	resp := ptraceotlp.NewExportResponse()
	var out []byte
	if ctype == "application/json" {
		out, err = resp.MarshalJSON()
	} else {
		out, err = resp.MarshalProto()
	}
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", ctype)
	_, _ = w.Write(out)
}

// readBody reads an export's body, decompressing gzip, within maxBody.
func readBody(req *http.Request) ([]byte, error) {
	var rd io.Reader = req.Body
	switch req.Header.Get("Content-Encoding") {
	case "", "identity":
	case "gzip":
		gz, err := gzip.NewReader(req.Body)
		if err != nil {
			return nil, fmt.Errorf("bad gzip body: %w", err)
		}
		defer gz.Close()
		rd = gz
	default:
		return nil, errors.New("unsupported Content-Encoding " + req.Header.Get("Content-Encoding") + ": use gzip or none")
	}
	b, err := io.ReadAll(io.LimitReader(rd, maxBody+1))
	if err != nil {
		return nil, fmt.Errorf("read body: %w", err)
	}
	if len(b) > maxBody {
		return nil, fmt.Errorf("export larger than %d MiB", maxBody>>20)
	}
	return b, nil
}

func (r *Receiver) reject() {
	r.mu.Lock()
	r.stats.Rejected++
	r.mu.Unlock()
}

// keep stores the spans of one export, up to the bound.
func (r *Receiver) keep(ss []spans.Span) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.stats.Exports++
	r.last = time.Now()
	room := max(r.limit-len(r.spans), 0)
	if len(ss) > room {
		r.stats.Dropped += len(ss) - room
		ss = ss[:room]
	}
	r.spans = append(r.spans, ss...)
	for i := range ss {
		r.traces[ss[i].Trace] = true
	}
	r.stats.Spans = len(r.spans)
}

// Has reports whether a span of the trace has arrived.
func (r *Receiver) Has(id sample.TraceID) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.traces[id]
}

// Reset forgets the spans and counts so far, for a receiver that serves
// several runs in turn.
func (r *Receiver) Reset() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.spans, r.stats, r.last = nil, Stats{}, time.Time{}
	clear(r.traces)
}
