// Package engine runs a plan: it starts iterations by each scenario's load
// model, sends the requests of their flows and records every measurement
// into a sample.Recorder. It knows nothing of reports, stores or dashboards.
package engine

import (
	"context"
	"crypto/tls"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/loadlens/loadlens/internal/engine/h1"
	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/protocol"
	"github.com/loadlens/loadlens/internal/sample"
)

// Options tunes an Engine beyond what the plan says.
type Options struct {
	// Segment is the part of the test this engine runs; the zero value runs all of it.
	Segment plan.Segment
	// Start is the run's time zero, shared with the recorder's clock: Run
	// prepares the VUs before it and starts the schedule at it. Zero means
	// as soon as Run has prepared.
	Start time.Time
	// Notify receives one-line notices about the run (e.g. data running out); nil drops them.
	Notify func(msg string)
	// NetHTTPOnly sends plain http:// requests through net/http too, instead
	// of the lean HTTP/1.1 client; for comparisons.
	NetHTTPOnly bool
	// NetHTTP2 sends the https:// requests of scenarios with http2: true
	// through net/http, instead of the lean HTTP/2 client; for comparisons.
	NetHTTP2 bool
	// ConnectTimeout bounds one TCP connect; zero means 30s.
	ConnectTimeout time.Duration
	// TLSHandshakeTimeout bounds one TLS handshake; zero means 30s.
	TLSHandshakeTimeout time.Duration
	// Trace is the W3C trace context every request carries.
	Trace TraceOptions
	// Shared are the values of the plan's setup variables (RunHook's
	// result), which every VU starts with; nil when the test has no setup.
	Shared []string
}

// Engine runs one plan once. Create it with New and call Run.
type Engine struct {
	plan       *plan.Plan
	rec        sample.Recorder
	opts       Options
	dialer     *net.Dialer // every VU's connections, both clients
	tlsTimeout time.Duration
	start      time.Time
	files      int64 // the process's open-file limit; 0: unknown
	scens      []*scenarioRun
	vuSeq      atomic.Int64

	failOnce sync.Once
	failErr  error
	cancel   context.CancelCauseFunc

	idleCloses h1.IdleCloses // the targets' keep-alive timeouts, as the VUs' lean clients met them
	h1TLS      *tls.Config   // every lean client's base TLS configuration, which h1 clones per host: one, not 450 B per VU

	sessions    map[*plan.Session]protocol.Step // the plan's session steps, prepared once
	sessionsErr error                           // why one could not be prepared; Run returns it

	unread   *checkNotes  // says once per check why a body did not decode as JSON
	operands *checkNotes  // says once per check why a rendered value could not be compared with
	bodies   sharedBodies // the large constant request bodies, one copy for every VU

	versions []versionCount // per endpoint: http2 scenarios' responses by HTTP version (countVersion)

	httpPool  sync.Pool // of *httpState, lent to parking VUs while they run
	startGate int       // the closed model's start gate's size; 0: startGateSize (tests make it small)
	// startGateGrace is how long a dial holds the start gate; 0: startDialGrace (tests set it)
	startGateGrace time.Duration
}

// New prepares an engine for the plan; measurements go to rec.
func New(p *plan.Plan, rec sample.Recorder, opts Options) *Engine {
	e := &Engine{plan: p, rec: rec, opts: opts,
		dialer:     &net.Dialer{Timeout: orDefault(opts.ConnectTimeout, 30*time.Second), KeepAlive: 30 * time.Second},
		tlsTimeout: orDefault(opts.TLSHandshakeTimeout, 30*time.Second), files: openFileLimit()}
	e.h1TLS = e.tlsConfig()
	e.unread = newCheckNotes(len(p.Layout.Checks))
	e.operands = newCheckNotes(len(p.Layout.Checks))
	e.versions = make([]versionCount, len(p.Layout.Endpoints))
	e.sessions = map[*plan.Session]protocol.Step{}
	e.sessionsErr = e.prepareSessions()
	for _, s := range p.Scenarios {
		sc := newScenarioRun(e, s)
		sc.sessionsOnly = firstRequest(s.Flow) == nil
		e.scens = append(e.scens, sc)
	}
	return e
}

func orDefault(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}

// Run prepares the VUs, then executes every scenario at once from the
// start and returns when all have ended. Cancelling ctx stops the run at
// once: no new iterations start, and requests in flight are cut off and
// recorded as interrupted.
func (e *Engine) Run(ctx context.Context) error {
	if e.sessionsErr != nil {
		return e.sessionsErr
	}
	ctx, e.cancel = context.WithCancelCause(ctx)
	defer e.cancel(nil)
	defer holdGCHeadroom(e.peakVUs())() // before preparing: its collection retunes
	e.prepare(ctx, e.opts.Start)
	e.start = e.opts.Start
	if e.start.IsZero() {
		e.start = time.Now()
	}
	var wg sync.WaitGroup
	for _, sc := range e.scens {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sc.run(ctx)
		}()
	}
	wg.Wait()
	return e.failErr
}

// Gauges appends each scenario's current VU state to dst, in plan order,
// with the most VUs active at once since the previous call (Peak): the
// collector calls it once a second, so a second's VUs are those it had.
func (e *Engine) Gauges(dst []sample.Gauge) []sample.Gauge {
	for _, sc := range e.scens {
		dst = append(dst, sample.Gauge{Active: sc.active.Load(), Peak: sc.takePeak(), Allocated: sc.allocated.Load(),
			HeldAt: sc.heldAt.Load(), HeldBy: holdReason(sc.heldBy.Load()).String()})
	}
	return dst
}

// InFlight returns the requests sent and not yet answered, over every scenario.
func (e *Engine) InFlight() int64 {
	var n int64
	for _, sc := range e.scens {
		n += sc.inflight.Load()
	}
	return n
}

// fail stops the whole run with err, which Run then returns.
func (e *Engine) fail(err error) {
	e.failOnce.Do(func() {
		e.failErr = err
		e.cancel(err)
	})
}

func (e *Engine) notify(msg string) {
	if e.opts.Notify != nil {
		e.opts.Notify(msg)
	}
}

// since returns the offset of t from the run's start.
func (e *Engine) since(t time.Time) time.Duration { return t.Sub(e.start) }
