package engine

import (
	"context"
	"encoding/json"
	"math"
	"strconv"
	"time"

	"github.com/loadlens/loadlens/internal/jsonpath"
	"github.com/loadlens/loadlens/internal/plan"
)

// walk is an iteration's timing as its steps run.
type walk struct {
	intended  time.Time // when the iteration should have started (zero: at its first step)
	stepStart time.Time // when the next request should have been sent (zero: now)
	end       time.Time // when the last step ended; zero after a think time
	// parks says the flow's last think time is not slept but left in park,
	// for a closed-model VU that waits for it without its goroutine.
	parks bool
	park  time.Duration
	// cut is what was left of the last think when the scenario's end
	// ended it: the iteration is recorded with the think it drew, at now.
	cut time.Duration
}

// groupStart is when a group beginning now started on the run's clock: at
// its first request's intended start when that request is late (the open
// model's queue wait is in the request's latency, so it is in its group's
// too: a group is never faster than the request inside it).
func (w *walk) groupStart(now time.Time) time.Time {
	if !w.stepStart.IsZero() && w.stepStart.Before(now) {
		return w.stepStart
	}
	return now
}

// steps runs flow; top says it is the scenario's flow itself, whose last
// request ends the iteration. It returns false when the VU must stop.
func (v *vu) steps(ctx context.Context, flow []plan.Step, w *walk, top bool) bool {
	for i := range flow {
		st := &flow[i]
		if v.notSent != "" && st.Kind != plan.ThinkStep {
			// a request not sent ends the iteration's requests, as a throw ends
			// k6's; its think times still run, so the VU keeps its pace
			continue
		}
		switch st.Kind {
		case plan.ThinkStep:
			v.leaveGate() // waiting before its first request: it holds no CPU
			if w.intended.IsZero() {
				w.intended = time.Now()
			}
			d := v.thinkTime(st)
			w.end, w.stepStart = time.Time{}, time.Time{}
			if w.parks && top && i == len(flow)-1 && d > 0 {
				w.park = d
				return true
			}
			if !v.sleep(ctx, d) {
				return false
			}
		case plan.RequestStep:
			// the last step's request ends the iteration: recorded at once
			v.http.endsIter, v.http.iterStart = top && i == len(flow)-1, w.intended
			err := v.request(ctx, st.Request, w.stepStart)
			v.leaveGate() // through its first request: the next VU may start
			if err != nil {
				return false
			}
			if v.notSent != "" {
				continue
			}
			if w.intended.IsZero() {
				w.intended = v.http.began
			}
			w.end, w.stepStart = v.http.ended, time.Time{}
		case plan.SessionStep:
			if !v.session(ctx, st.Session, w) {
				return false
			}
		default:
			if !v.control(ctx, st, w) {
				return false
			}
		}
	}
	return true
}

// control runs a control-flow step.
func (v *vu) control(ctx context.Context, st *plan.Step, w *walk) bool {
	b := st.Block
	switch st.Kind {
	case plan.GroupStep:
		start := w.groupStart(time.Now())
		if !v.steps(ctx, b.Steps, w, false) {
			return false
		}
		end := time.Now()
		v.sink.Group(b.Group, v.sc.e.since(end), end.Sub(start))
	case plan.RepeatStep:
		for range b.Count {
			if ctx.Err() != nil || !v.steps(ctx, b.Steps, w, false) {
				return false
			}
		}
	case plan.ForEachStep:
		return v.forEach(ctx, b, w)
	case plan.IfStep:
		if v.holds(b.Cond) {
			return v.steps(ctx, b.Steps, w, false)
		}
		return v.steps(ctx, b.Else, w, false)
	case plan.ChooseStep:
		n := v.tc.Rand.IntN(b.Total)
		for i := range b.Paths {
			if n < b.Paths[i].Weight {
				return v.steps(ctx, b.Paths[i].Steps, w, false)
			}
			n -= b.Paths[i].Weight
		}
	case plan.SetStep:
		v.set(b.Sets)
	case plan.AddStep:
		v.add(b.Adds)
	}
	return true
}

// forEach runs b's steps once for each of the first b.Count elements of
// the JSON array in variable b.List (none when it holds no array), with
// the element, or what b.Path finds in it, in variable b.Var.
func (v *vu) forEach(ctx context.Context, b *plan.Block, w *walk) bool {
	var items []any
	if json.Unmarshal([]byte(v.tc.Vars[b.List]), &items) != nil {
		return ctx.Err() == nil
	}
	visited := 0
	for _, it := range items {
		if visited == b.Count {
			break
		}
		if !b.Path.IsZero() {
			var ok bool
			if it, ok = b.Path.Lookup(it); !ok {
				continue
			}
		}
		visited++
		v.tc.Vars[b.Var] = jsonpath.Format(it)
		if ctx.Err() != nil || !v.steps(ctx, b.Steps, w, false) {
			return false
		}
	}
	return true
}

// holds evaluates an if: or unless: condition.
func (v *vu) holds(c *plan.Cond) bool {
	var ok bool
	switch c.On {
	case plan.CondVar:
		val := v.tc.Vars[c.Var]
		if c.Test.Op == plan.OpExists {
			ok = (val != "") == c.Test.ExistsWanted()
		} else {
			ok = c.Test.Compare(val, true)
		}
	case plan.CondStatus:
		ok = c.Test.Compare(strconv.Itoa(v.lastStatus), true)
	case plan.CondChecks:
		ok = v.checksOK == c.Passed
	}
	return ok != c.Negate
}

// set gives variables their values, rendered in order: a later one may
// read an earlier one.
func (v *vu) set(sets []plan.Set) {
	for i := range sets {
		v.scratch = sets[i].Value.Render(v.scratch[:0], &v.tc)
		v.tc.Vars[sets[i].Var] = string(v.scratch)
	}
}

// add renders each value and adds it to its custom metric; a value that
// is not one (not a number, a trend's value out of range) is recorded as
// NaN, which the metrics count as invalid. A setup's adds are not measured.
func (v *vu) add(adds []plan.Add) {
	var end time.Duration
	for i := range adds {
		a := &adds[i]
		if a.Series < 0 {
			continue
		}
		if end == 0 {
			end = v.sc.e.since(time.Now())
		}
		v.scratch = a.Value.Render(v.scratch[:0], &v.tc)
		val, ok := plan.MetricValue(a.Kind, string(v.scratch))
		if !ok {
			val = math.NaN()
		}
		v.sink.Add(a.Series, end, val)
	}
}

// firstRequest returns the first request flow sends when it takes every
// branch, nil when it has none.
func firstRequest(flow []plan.Step) *plan.Request {
	var first *plan.Request
	plan.Walk(flow, func(st *plan.Step) {
		if first == nil && st.Kind == plan.RequestStep {
			first = st.Request
		}
	})
	return first
}
