package mock

import (
	"strconv"
	"strings"
	"time"

	"github.com/loadlens/loadlens/internal/tmpl"
	"github.com/loadlens/loadlens/internal/yamldoc"
)

// Bounds on what one response may cost the mock, whatever its config asks.
const (
	// maxRender bounds the templated headers and body of one response: every
	// template call is bounded, but 4,000 calls of randString(65536) rendered
	// 262 MB per request.
	maxRender = 16 << 20
	// renderBudget bounds the rendered responses held at once, so that
	// concurrent requests wait for memory instead of taking it all.
	renderBudget = 128 << 20
	// renderSmall is the rendered size below which a response skips the
	// budget: the common small answer stays lock-free.
	renderSmall = 64 << 10
	// maxReqHeader is the request line and headers the mock accepts; the
	// path, query, host, header and cookie variables are at most this long.
	maxReqHeader = 1 << 20
	// maxHeaderVar adds the 4 KiB net/http allows beyond MaxHeaderBytes.
	maxHeaderVar = maxReqHeader + 4096
	// maxJSONVar: a JSON value re-encoded can be up to 3 times its source
	// (an invalid UTF-8 byte becomes U+FFFD).
	maxJSONVar = 3 * maxReqBody
	// minBandwidth is the slowest bandwidth: below 1 B/s a response of a
	// few bytes takes days, which is a hung mock, not a slow link.
	minBandwidth = 1.0
	// maxLatency bounds a configured delay and every delay drawn, so that
	// a distribution's tail cannot overflow a time.Duration or park a
	// request for days.
	maxLatency = time.Hour
)

// varBound returns the longest value of each of r's template variable slots.
func (r *Route) varBound(slot int) int64 {
	switch {
	case slot == slotBody:
		return maxReqBody
	case slot < firstParamSlot+len(r.pattern.params):
		return maxHeaderVar
	}
	i := slot - firstParamSlot - len(r.pattern.params)
	if i < len(r.vars) && r.vars[i].from == "json" {
		return maxJSONVar
	}
	if i < len(r.vars) && r.vars[i].from == "form" {
		return maxReqBody
	}
	return maxHeaderVar
}

// renderBound returns the most bytes r's templated headers and body
// render when each variable slot holds at most varLen(slot) bytes (nil:
// none); constant
// parts are not counted, as they are built once at load time.
func (r *Route) renderBound(varLen func(int) int64) int64 {
	b := tmpl.Bounds{Var: varLen}
	var n int64
	if r.body != nil && r.static == nil {
		n = r.body.MaxLen(b)
	}
	for i := range r.headers {
		if h := &r.headers[i]; h.fixed == nil {
			n = min(n+int64(len(h.name))+h.value.MaxLen(b), 1<<62)
		}
	}
	return n
}

// checkRender refuses a route whose templates alone, before any request
// field, can render more than maxRender per response, with the figure, at
// its body (or the route when its headers are what is too large). What
// request fields add is checked per request (reservation), as it depends
// on what the client sends.
func (p *configParser) checkRender(o *yamldoc.Object, r *Route) {
	r.renderMax = r.renderBound(r.varBound)
	own := r.renderBound(nil)
	if own <= maxRender {
		return
	}
	n := o.Node
	for _, k := range []string{"body", "json"} {
		if v, ok := o.Get(k); ok && r.body.MaxLen(tmpl.Bounds{}) > maxRender {
			n = v
		}
	}
	p.d.Errorf(n, "this route's templates can render %s per response, more than the %s a response may: every call is bounded, but not their total; use fewer calls, or a file: body",
		byteCount(own), "16 MiB")
}

// budget is a pool of bytes that rendered responses reserve, so that
// memory stays bounded however many requests arrive at once.
type budget struct {
	free chan int64 // holds the free byte count; empty while one goroutine updates it
	wake chan struct{}
}

func newBudget(n int64) *budget {
	b := &budget{free: make(chan int64, 1), wake: make(chan struct{})}
	b.free <- n
	return b
}

// acquire reserves n bytes, waiting for releases until done closes; it
// reports whether it reserved them.
func (b *budget) acquire(n int64, done <-chan struct{}) bool {
	for {
		var free int64
		select {
		case free = <-b.free:
		case <-done:
			return false
		}
		if free >= n {
			b.free <- free - n
			return true
		}
		wake := b.wake
		b.free <- free
		select {
		case <-wake:
		case <-done:
			return false
		}
	}
}

// release returns n bytes and wakes the waiters to try again.
func (b *budget) release(n int64) {
	free := <-b.free
	close(b.wake)
	b.wake = make(chan struct{})
	b.free <- free + n
}

// byteCount writes n bytes with its digits grouped: "262,147,999 bytes".
// (internal/units is not among the mock's imports.)
func byteCount(n int64) string {
	d := strconv.FormatInt(n, 10)
	var b strings.Builder
	for i, c := range d {
		if i > 0 && (len(d)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String() + " bytes"
}

// hours writes a duration of an hour or more without its zero minutes
// and seconds: 100000h, 1h30m.
func hours(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}
