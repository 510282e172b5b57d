package mock

import (
	"math/rand/v2"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/loadlens/loadlens/internal/tmpl"
)

// statusGone counts a request whose answer was no longer wanted when its
// latency had passed (the client left, or the mock is stopping), as nginx's
// 499 does.
const statusGone = 499

// handler answers requests from the config's routes.
type handler struct {
	cfg   *Config
	token string // the admin API's; "" for none (loopback only)
	stats serverStats
	// slack is how late timers fire on average (an EWMA in ns), taken off
	// each delay so the applied latency matches the configured one.
	slack atomic.Int64
	// budget holds the bytes that large rendered responses reserve.
	budget *budget
}

// newHandler returns the handler of cfg's routes.
func newHandler(cfg *Config) *handler {
	return &handler{cfg: cfg, stats: serverStats{start: time.Now()}, budget: newBudget(renderBudget)}
}

// maxStackParams is how many path parameters fit the stack buffer; more allocate.
const maxStackParams = 8

// bufPool holds buffers for rendered bodies.
var bufPool = sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}

var textPlain = []string{"text/plain; charset=utf-8"}

// isAdmin reports whether path is under the admin prefix.
func (h *handler) isAdmin(path string) bool {
	p := h.cfg.Admin
	return len(path) >= len(p) && path[:len(p)] == p && (len(path) == len(p) || path[len(p)] == '/')
}

// handle answers one request that is not for the admin API.
func (h *handler) handle(x exchange) {
	start := time.Now()
	h.stats.inFlight.Add(1)
	defer h.stats.inFlight.Add(-1)
	q := request{x: x}
	var stack [maxStackParams]string
	route, params := h.find(&q, stack[:])
	if route == nil {
		h.stats.unmatched.Add(1)
		x.setHeader("Content-Type", textPlain)
		x.answer(404, []byte("loadlens mock: no route matches "+x.method()+" "+x.path()+"\n"), false)
		return
	}
	h.serve(x, &q, route, params, start)
}

// find returns the first route that matches the request, and its path
// parameters' values.
func (h *handler) find(q *request, stack []string) (*Route, []string) {
	method, path := q.x.method(), q.x.path()
	for _, rt := range h.cfg.Routes {
		if rt.Method != "" && rt.Method != method && (rt.Method != "GET" || method != "HEAD") {
			continue
		}
		var params []string
		if n := len(rt.pattern.params); n > len(stack) {
			params = make([]string, n)
		} else {
			params = stack[:n]
		}
		if !rt.pattern.match(path, params) {
			continue
		}
		ok := true
		for i := range rt.match {
			if !rt.match[i].matches(q) {
				ok = false
				break
			}
		}
		if ok {
			return rt, params
		}
	}
	return nil, nil
}

// serve answers a matched request: latency, then an injected error or the
// route's answer, at the route's bandwidth.
func (h *handler) serve(x exchange, q *request, rt *Route, params []string, start time.Time) {
	b := rt.behavior.Load()
	fault := pickFault(b.Faults)
	if b.Latency.Kind != "" {
		if d := b.Latency.Sample(nil); d > 0 {
			applied, ok := h.delay(x, d)
			rt.stats.delay.observe(applied)
			if !ok {
				rt.stats.record(statusGone, time.Since(start))
				return
			}
		}
	}
	if fault != nil {
		h.fail(x, rt, fault, start)
		return
	}
	var ctx tmpl.Context
	if rt.needs.vars {
		ctx.Vars = values(q, rt, params)
	}
	reserved := reservation(rt, ctx.Vars)
	if reserved > maxRender {
		h.tooLarge(x, rt, reserved, start)
		return
	}
	if n := reserved; n > 0 {
		if !h.budget.acquire(n, x.done()) {
			rt.stats.record(statusGone, time.Since(start))
			return
		}
		defer h.budget.release(n)
	}
	for i := range rt.headers {
		hd := &rt.headers[i]
		if hd.fixed != nil {
			x.setHeader(hd.name, hd.fixed)
			continue
		}
		x.setHeader(hd.name, []string{string(hd.value.Render(nil, &ctx))})
	}
	switch {
	case rt.static != nil && b.Bandwidth > 0:
		x.answerPaced(rt.Status, rt.static, b.Bandwidth)
	case rt.static != nil || rt.body == nil:
		x.answer(rt.Status, rt.static, true)
	default:
		pooled := bufPool.Get().(*[]byte)
		buf := (*pooled)[:0]
		if reserved > int64(cap(buf)) {
			// Sized once to the bound: growing by doubling would leave up to as much again as garbage.
			buf = make([]byte, 0, reserved)
		}
		body := rt.body.Render(buf, &ctx)
		if b.Bandwidth > 0 {
			x.answerPaced(rt.Status, body, b.Bandwidth)
		} else {
			x.answer(rt.Status, body, false)
		}
		if cap(body) <= 1<<20 {
			*pooled = body[:0]
			bufPool.Put(pooled)
		}
	}
	rt.stats.record(rt.Status, time.Since(start))
}

// delay waits d, less the timers' usual lateness, unless the answer stops
// being wanted; it returns the time waited and whether it was waited whole.
func (h *handler) delay(x exchange, d time.Duration) (time.Duration, bool) {
	slack := time.Duration(h.slack.Load())
	ask := max(d-slack, 0)
	begin := time.Now()
	t := time.NewTimer(ask)
	defer t.Stop()
	select {
	case <-t.C:
	case <-x.done():
		return time.Since(begin), false
	}
	waited := time.Since(begin)
	if ask > 0 {
		late := waited - ask
		// Lateness beyond 2 ms is the machine being busy, not timer granularity: ignored.
		if late >= 0 && late < 2*time.Millisecond {
			h.slack.Store(int64(slack + (late-slack)/64))
		}
	}
	return waited, true
}

// values returns the template variables of a request: the built-ins, the
// path parameters and the route's vars.
func values(q *request, rt *Route, params []string) []string {
	vals := make([]string, rt.slots)
	vals[slotMethod] = q.x.method()
	vals[slotPath] = q.x.path()
	vals[slotQuery] = q.x.rawQuery()
	vals[slotHost] = q.x.host()
	if rt.needs.body {
		vals[slotBody] = string(q.readBody())
	}
	copy(vals[firstParamSlot:], params)
	base := firstParamSlot + len(params)
	for i, v := range rt.vars {
		vals[base+i], _ = q.lookup(v.from, v.key, v.path)
	}
	return vals
}

// bodyAllowed reports whether a response with status may have a body.
func bodyAllowed(status int) bool {
	return !(status >= 100 && status < 200) && status != 204 && status != 304
}

// pickFault draws which injected error, if any, a request gets.
func pickFault(faults []Fault) *Fault {
	if len(faults) == 0 {
		return nil
	}
	u := rand.Float64()
	for i := range faults {
		if u < faults[i].Rate {
			return &faults[i]
		}
		u -= faults[i].Rate
	}
	return nil
}

// fail answers with an injected error.
func (h *handler) fail(x exchange, rt *Route, f *Fault, start time.Time) {
	if f.Reset {
		rt.stats.resets.Add(1)
		x.reset()
		return
	}
	status := f.Statuses[0]
	if len(f.Statuses) > 1 {
		status = f.Statuses[rand.IntN(len(f.Statuses))]
	}
	rt.stats.faults.Add(1)
	body := f.Body
	if body == "" {
		body = "loadlens mock: injected error " + strconv.Itoa(status) + "\n"
	}
	x.setHeader("Content-Type", textPlain)
	x.answer(status, []byte(body), false)
	rt.stats.record(status, time.Since(start))
}

// reservation is how many bytes of the render budget a response of rt to
// a request with vals must reserve: its bound with these values, or 0 when
// that is small enough to skip the budget.
func reservation(rt *Route, vals []string) int64 {
	if rt.renderMax <= renderSmall {
		return 0
	}
	n := rt.renderBound(func(slot int) int64 {
		if slot < len(vals) {
			return int64(len(vals[slot]))
		}
		return 0
	})
	if n <= renderSmall {
		return 0
	}
	return n
}

// tooLarge answers 500 to a request whose fields would make the route's
// templates render more than maxRender (the template alone is checked at
// load time).
func (h *handler) tooLarge(x exchange, rt *Route, n int64, start time.Time) {
	x.setHeader("Content-Type", textPlain)
	msg := "loadlens mock: with this request's fields, route " + rt.Name + " could render " + byteCount(n) + ", more than the 16 MiB an answer may\n"
	x.answer(http.StatusInternalServerError, []byte(msg), false)
	rt.stats.record(http.StatusInternalServerError, time.Since(start))
}
