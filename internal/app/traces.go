package app

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/loadlens/loadlens/internal/engine"
	"github.com/loadlens/loadlens/internal/otlp"
	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/report"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/spans"
	"github.com/loadlens/loadlens/internal/store"
	"github.com/loadlens/loadlens/internal/units"
)

// Bounds of the trace join: memory stays bounded however long the run.
const (
	joinBound = 100_000   // sampled requests kept for joining with spans
	SpanBound = 1_000_000 // spans the receiver keeps
	// spanWait bounds the wait for the spans of the run's last requests:
	// the OpenTelemetry SDK exports a batch every 5 s by default.
	spanWait  = 6 * time.Second
	spanQuiet = 2 * time.Second // no span at all by then: the target exports none
)

// traceRun is a run's trace machinery: the keeper of its trace ids and,
// when the test has observe.traces or the caller gave one, the receiver.
type traceRun struct {
	keeper *spans.Keeper
	recv   *otlp.Receiver
	ui     string
	opts   engine.TraceOptions
}

// startTraces prepares the run's traces: its receiver (closed by undo
// when the run started it) and the keeper the engine records into.
func startTraces(p *plan.Plan, cfg RunConfig, runID string, shards int, undo *cleanups) (*traceRun, error) {
	t := &traceRun{ui: p.Tracing.UI, recv: cfg.Traces}
	switch {
	case t.recv != nil:
		t.recv.Reset() // a receiver serving several runs: this run's spans only
	case p.Observe.Traces != nil:
		recv, err := listenTraces(p.Observe.Traces, cfg.Out)
		if err != nil {
			return nil, err
		}
		undo.add(func() { _ = recv.Close() })
		t.recv = recv
	}
	join := 0
	if t.recv != nil {
		join = joinBound
	}
	keep := p.Tracing.Keep
	if keep <= 0 {
		keep = plan.DefaultTraceKeep
	}
	t.keeper = spans.NewKeeper(len(p.Layout.Endpoints), shards, keep, join)
	if t.recv != nil { // only the run's own traces reach the findings
		t.recv.Join(otlp.Join{Lookup: t.keeper.Endpoint, Endpoints: len(p.Layout.Endpoints)})
	}
	t.opts = engine.TraceOptions{Sample: p.Tracing.Sample}
	if p.Tracing.TraceState {
		t.opts.TraceState = []byte("loadlens=" + runID)
	}
	if p.Tracing.Baggage {
		t.opts.Baggage = []byte("loadlens.run=" + runID)
	}
	return t, nil
}

// listenTraces starts the receiver of observe.traces and says where it
// listens. On an address other hosts can reach it takes only exports with
// its token, as the dashboard takes only browsers with its own: the token
// written in the test, or one made up and printed here.
func listenTraces(o *plan.ObserveTraces, out io.Writer) (*otlp.Receiver, error) {
	recv, err := otlp.Listen(o.Listen, otlp.Options{Spans: SpanBound, Token: o.Token})
	if err != nil {
		return nil, fmt.Errorf("observe.traces: %w", err)
	}
	fmt.Fprintf(out, "traces: OTLP/HTTP receiver at %s (OTEL_EXPORTER_OTLP_ENDPOINT=%s)\n", recv.Endpoint()+otlp.Path, recv.Endpoint())
	if o.GRPC != "" {
		addr, err := recv.ServeGRPC(o.GRPC)
		if err != nil {
			_ = recv.Close()
			return nil, fmt.Errorf("observe.traces.grpc: %w", err)
		}
		fmt.Fprintf(out, "traces: OTLP/gRPC receiver at %s\n", addr)
	}
	switch token := recv.Token(); {
	case token == "":
	case o.Token == "":
		fmt.Fprintf(out, "traces: the receiver is reachable from other hosts and takes only exports with its token: OTEL_EXPORTER_OTLP_HEADERS=%s\n", otlp.HeadersEnv(token))
	default:
		fmt.Fprintln(out, "traces: the receiver takes only exports with observe.traces.token: OTEL_EXPORTER_OTLP_HEADERS=Authorization=Bearer%20<the token>")
	}
	return recv, nil
}

// wrap returns the recorder the engine records into: rec, with every
// request offered to the keeper.
func (t *traceRun) wrap(rec sample.Recorder) sample.Recorder { return t.keeper.Wrap(rec) }

// finish waits (bounded) for the spans of the run's last sampled requests,
// joins them, and returns what run.db stores and the report shows.
func (t *traceRun) finish(ctx context.Context, notice func(string)) (*store.Traces, *report.Traces) {
	st := &store.Traces{Slowest: t.keeper.Slowest(), Failed: t.keeper.Failed()}
	reqs, beyond := t.keeper.Requests()
	if t.recv != nil {
		t.await(ctx, reqs)
		ss, rs := t.recv.Spans()
		joined, stmts, unjoined := spans.Join(reqs, ss)
		st.Joined, st.Statements = joined, stmts
		st.Stats = spans.Stats{Receiver: true, Sampled: len(reqs), Unjoined: unjoined, Beyond: beyond,
			Spans: rs.Spans, Dropped: rs.Dropped, Rejected: rs.Rejected, Exports: rs.Exports, Foreign: rs.Foreign, Impossible: rs.Impossible}
		switch {
		case len(reqs) == 0:
			notice("traces: no request was sampled (tracing.sample is 0), so no span could be joined")
		case len(joined) == 0:
			notice(fmt.Sprintf("traces: none of the %s sampled requests came back as spans at %s: is the target exporting there, and does it honour the traceparent header?",
				units.Count(int64(len(reqs))), t.recv.Endpoint()))
		}
		if beyond > 0 {
			notice(fmt.Sprintf("traces: only the first %s sampled requests were joined with spans (%s more were not): lower tracing.sample for a run this long",
				units.Count(int64(len(reqs))), units.Count(int64(beyond))))
		}
		if rs.Dropped > 0 {
			notice(fmt.Sprintf("traces: the receiver kept %s spans and dropped %s more", units.Count(int64(rs.Spans)), units.Count(int64(rs.Dropped))))
		}
		if rs.Impossible > 0 {
			notice(fmt.Sprintf("traces: %s spans had impossible times (an end before the start, or a start, end or length far outside the run) and were dropped: they would make a request's parts longer than the request",
				units.Count(int64(rs.Impossible))))
		}
		if rs.Foreign > 0 {
			whose := "another service's or test's, or a stranger's"
			if beyond > 0 {
				whose += ", or those of the sampled requests beyond the first " + units.Count(int64(len(reqs)))
			}
			notice(fmt.Sprintf("traces: %s spans were of other traces than the run's sampled requests (%s), and were dropped",
				units.Count(int64(rs.Foreign)), whose))
		}
	}
	return st, viewTraces(st, t.ui)
}

// await waits until the spans of the requests that ended in the run's last
// two seconds have arrived, or spanWait has passed, or no span at all
// arrived within spanQuiet, or ctx ends (Ctrl-C does not wait).
func (t *traceRun) await(ctx context.Context, reqs []spans.Request) {
	last := 0
	for _, r := range reqs {
		last = max(last, r.Sec)
	}
	var tail []sample.TraceID
	for _, r := range reqs {
		if r.Sec >= last-1 {
			tail = append(tail, r.Trace)
		}
	}
	start := time.Now()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for len(tail) > 0 && time.Since(start) < spanWait {
		for len(tail) > 0 && t.recv.Has(tail[len(tail)-1]) {
			tail = tail[:len(tail)-1]
		}
		if _, n := t.recv.Quiet(time.Now()); n == 0 && time.Since(start) >= spanQuiet {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// viewTraces is what the report shows of stored traces; nil when none.
func viewTraces(st *store.Traces, ui string) *report.Traces {
	if st == nil {
		return nil
	}
	v := &report.Traces{UI: ui, Slowest: st.Slowest, Failed: st.Failed, Breakdowns: spans.Summarize(st.Joined, st.Statements), Stats: st.Stats}
	if !v.Kept() && !st.Stats.Receiver {
		return nil
	}
	return v
}
