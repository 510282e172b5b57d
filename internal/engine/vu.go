package engine

import (
	"context"
	"math/rand/v2"
	"sync/atomic"
	"time"

	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/tmpl"
)

// vu is one virtual user: it runs iterations of its scenario's flow one at
// a time, with its own variables, random source and buffers.
type vu struct {
	id    int64
	sc    *scenarioRun
	sink  sample.Sink
	last  sample.LastRequestSink // sink, when it records a request and its iteration at once
	tc    tmpl.Context
	timer *time.Timer
	// http is the request state, a kilobyte: a VU that parks holds it
	// only while it runs (lendHTTP), the others from their start.
	http *httpState
	h1   *h1Trip  // the lean clients: http:// and https:// hops, HTTP/2 too (h2Lean)
	net  *netTrip // hops through net/http (see tripper)
	// endedIter says the iteration's last request recorded the iteration
	// with it.
	endedIter bool
	// notSent is why a request of the iteration could not be sent, which
	// ended it; "" while none.
	notSent string
	jar     cookieJar
	// lastStatus and checksOK are the iteration's last response, for if:
	// conditions on status: and checks:.
	lastStatus int
	checksOK   bool
	scratch    []byte // set: steps render into it
	// sess are the VU's runners of the plan's session steps, made on first use.
	sess []vuSession
	trip atomic.Pointer[h1Trip] // http.h1 once made, when its runner aborts it
	// gate is set while the start gate admits the VU to its first request;
	// atomic, as net/http's goroutine may leave it (leaveGate).
	gate atomic.Pointer[startGate]
}

func (sc *scenarioRun) newVU() *vu {
	id := sc.e.vuSeq.Add(1)
	v := &vu{id: id, sc: sc, sink: sc.e.rec.Sink(int(id))}
	v.last, _ = v.sink.(sample.LastRequestSink)
	if !sc.parks() && !sc.sessionsOnly {
		v.http = new(httpState)
	}
	v.tc = tmpl.Context{
		Vars:     make([]string, len(sc.s.Vars)),
		VU:       id,
		Scenario: sc.s.Name,
		Rand:     rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), uint64(id))),
	}
	copy(v.tc.Vars[sc.s.SetupAt:], sc.e.opts.Shared) // the setup's values, which every VU reads
	v.set(sc.s.VUSets)                               // vu_vars: once, kept across the VU's iterations
	return v
}

// iterate runs the flow once. intended is when the iteration should have
// started (zero: now, as the first step reads the clock); the first request
// is timed from it, so any wait for this VU is part of that request's
// latency. It returns false when the VU must stop: the context ended or the
// scenario's unique data ran out.
func (v *vu) iterate(ctx context.Context, intended time.Time) bool {
	w := walk{intended: intended, stepStart: intended}
	if !v.walkFlow(ctx, &w) {
		return false
	}
	v.endIteration(&w)
	return true
}

// walkFlow runs the flow's steps for one iteration, up to its last think
// time when w.parks (left in w.park for the caller to wait). It returns
// false when the VU must stop.
func (v *vu) walkFlow(ctx context.Context, w *walk) bool {
	s := v.sc.s
	if s.Data != nil {
		row, got := v.sc.feed.next(ctx, v.tc.Rand)
		switch got {
		case ranOut:
			v.sc.dataExhausted()
			return false
		case notFed:
			return false
		}
		copy(v.tc.Vars, row)
	}
	for i := v.sc.firstReset; i < len(v.tc.Vars); i++ {
		v.tc.Vars[i] = "" // variables steps set live for one iteration; vu_vars stay
	}
	v.jar.reset() // and so do cookies, as in k6
	v.lendHTTP()
	v.endedIter, v.notSent = false, ""
	v.lastStatus, v.checksOK = 0, false
	return v.steps(ctx, s.Flow, w, true)
}

// endIteration records the iteration w walked, its think times waited; it
// returns when it ended (now, after a think time).
func (v *vu) endIteration(w *walk) time.Time {
	intended, end := w.intended, w.end
	if end.IsZero() || intended.IsZero() { // after a think time, or an empty flow
		end = time.Now()
		if intended.IsZero() {
			intended = end
		}
	}
	// An iteration ending in a request ends with its response: what follows
	// is the generator's recording, not the user's iteration.
	if !v.endedIter {
		v.sink.Iteration(v.sc.s.ID, v.sc.e.since(end), end.Sub(intended)+w.cut)
	}
	if v.notSent != "" {
		v.sink.NotSent(v.sc.s.ID, v.sc.e.since(end), v.notSent)
	}
	v.tc.Iteration++
	return end
}

// lendHTTP gives a VU that parks a request state for its iteration, from
// the engine's pool (a VU that does not park has its own already).
func (v *vu) lendHTTP() {
	if v.http != nil || v.sc.sessionsOnly {
		return
	}
	if v.http, _ = v.sc.e.httpPool.Get().(*httpState); v.http == nil {
		v.http = new(httpState)
	}
}

// returnHTTP gives a parking VU's request state back: 1 KiB that 10,000
// thinking VUs held for nothing. The state carries nothing from one
// request to the next but buffers' capacity and its clock.
func (v *vu) returnHTTP() {
	if v.http != nil {
		v.sc.e.httpPool.Put(v.http)
		v.http = nil
	}
}

func (v *vu) thinkTime(st *plan.Step) time.Duration {
	if st.ThinkMax <= st.ThinkMin {
		return st.ThinkMin
	}
	return st.ThinkMin + time.Duration(v.tc.Rand.Int64N(int64(st.ThinkMax-st.ThinkMin)+1))
}

// sleep waits for d unless ctx ends first; it reports whether d passed.
func (v *vu) sleep(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	if v.timer == nil {
		v.timer = time.NewTimer(d)
	} else {
		v.timer.Reset(d)
	}
	select {
	case <-v.timer.C:
		return true
	case <-ctx.Done():
		v.timer.Stop()
		return false
	}
}

// readyVU returns a new VU with what its first request needs made in
// advance where the test says it (a constant URL: its client and URL
// buffer), so that a VU prepared before the clock starts does not
// allocate them on its first request.
func (sc *scenarioRun) readyVU() *vu {
	v := sc.newVU()
	if r := firstRequest(sc.s.Flow); r != nil {
		if u, ok := r.URL.Const(); ok {
			if v.http != nil { // a parking VU's is lent when it runs
				v.http.url = append(make([]byte, 0, len(u)+64), u...)
			}
			_, _ = v.tripper([]byte(u)) // an unsupported scheme fails again, and is recorded, on the request
		}
	}
	return v
}
