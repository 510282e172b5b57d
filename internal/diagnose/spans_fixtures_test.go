package diagnose

import (
	"sync"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/spans"
)

// call is one outgoing call of a synthetic request: a database statement
// (system set) or an HTTP call to a host, taking its time in a row with
// the request's other calls.
type call struct {
	system, span, stmt, host string
	n                        int // how many times in a row
	each                     time.Duration
}

// spanReq is one synthetic request: the service's own time besides its
// calls, and what loadlens measured beyond the service (outside).
type spanReq struct {
	own, outside time.Duration
	calls        []call
}

// joinedOf keeps the joined traces and statements of each traced run, so
// that the figure tests can store them in run.db.
var joinedOf sync.Map // *metrics.Run → storedTraces

type storedTraces struct {
	joined []spans.Trace
	stmts  []spans.Statement
}

// tracedRun is a closed-model run of one endpoint whose requests, rate a
// second, are the spec each second, joined with the spans a service
// exported for them, as spans.Join joins them.
func tracedRun(t testing.TB, ep string, seconds, rate int, spec func(i int) spanReq) Input {
	t.Helper()
	t0 := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	var rs []spans.Request
	var all []spans.Span
	durs := make([]time.Duration, 0, seconds*rate)
	for i := range seconds * rate {
		r := spec(i)
		var id sample.TraceID
		id[0], id[14], id[15] = 0x42, byte(i>>8), byte(i)
		start := t0.Add(time.Duration(i) * time.Second / time.Duration(rate))
		root := spans.Span{Trace: id, ID: spans.SpanID{1}, Parent: spans.SpanID{0xff}, Service: "app", Name: ep, Kind: spans.KindServer, Start: start}
		at := start.Add(r.own / 2)
		sid := byte(2)
		for _, c := range r.calls {
			for range c.n {
				s := spans.Span{Trace: id, ID: spans.SpanID{sid}, Parent: root.ID, Service: "app", Name: c.span, Kind: spans.KindClient,
					Start: at, End: at.Add(c.each), DBSystem: c.system, Statement: c.stmt, Host: c.host}
				all = append(all, s)
				at, sid = at.Add(c.each), sid+1
			}
		}
		root.End = at.Add(r.own - r.own/2)
		all = append(all, root)
		d := root.End.Sub(start) + r.outside
		rs = append(rs, spans.Request{Trace: id, Sec: i / rate, Duration: d})
		durs = append(durs, d)
	}
	joined, stmts, unmatched := spans.Join(rs, all)
	if unmatched != 0 {
		t.Fatalf("%d requests not joined", unmatched)
	}
	secs := make([]sec, seconds)
	for s := range secs {
		ds := durs[s*rate : (s+1)*rate]
		secs[s] = sec{vus: int64(rate), reqs: []reqs{{n: rate, dur: func(i, _ int) time.Duration { return ds[i] }}}}
	}
	run := build(t, layout(modelVUs, ep), secs)
	joinedOf.Store(run, storedTraces{joined: joined, stmts: stmts})
	return Input{Run: run, Traces: spans.Summarize(joined, stmts)}
}

// The synthetic services' calls.
var (
	reviewsQuery = call{system: "postgresql", span: "SELECT app.review", stmt: "select r.id, r.author_id from review r where r.app_id = ?", n: 1, each: 2 * time.Millisecond}
	authorQuery  = call{system: "postgresql", span: "SELECT app.author", stmt: "select a.id, a.name from author a where a.id = ?", each: time.Millisecond / 2}
)

// nPlusOneRun: every request lists an app's reviews, then reads each
// review's author by itself (calls a request, +0 to +2), besides own time
// in the service (a saturated one's includes waiting for a thread).
func nPlusOneRun(calls int, own time.Duration) func(t *testing.T) Input {
	return func(t *testing.T) Input {
		return tracedRun(t, "GET /apps/{id}/reviews", 10, 10, func(i int) spanReq {
			a := authorQuery
			a.n = calls + i%3
			return spanReq{own: own + time.Duration(i%7)*100*time.Microsecond, outside: time.Millisecond / 2, calls: []call{reviewsQuery, a}}
		})
	}
}

// oneHeavyQuery: each request runs one slow query (a missing index).
func oneHeavyQuery(t *testing.T) Input {
	return tracedRun(t, "GET /apps/{id}/reviews", 10, 10, func(i int) spanReq {
		q := reviewsQuery
		q.each = 30*time.Millisecond + time.Duration(i%9)*time.Millisecond
		return spanReq{own: 3 * time.Millisecond, outside: time.Millisecond / 2, calls: []call{q}}
	})
}

// fewQueries: each request runs five different statements once.
func fewQueries(t *testing.T) Input {
	return tracedRun(t, "GET /apps/{id}", 10, 10, func(i int) spanReq {
		var cs []call
		for j, tbl := range []string{"app", "price", "category", "review", "author"} {
			cs = append(cs, call{system: "postgresql", span: "SELECT app." + tbl, stmt: "select * from " + tbl + " where id = ?", n: 1,
				each: time.Duration(2+j+i%3) * time.Millisecond})
		}
		return spanReq{own: 4 * time.Millisecond, outside: time.Millisecond / 2, calls: cs}
	})
}

// externalCall: each request calls one host, taking each per call.
func externalCall(each time.Duration) func(t *testing.T) Input {
	return func(t *testing.T) Input {
		return tracedRun(t, "GET /apps/{id}/price", 10, 10, func(i int) spanReq {
			c := call{span: "GET", host: "127.0.0.1", n: 1, each: each + time.Duration(i%11)*each/50}
			return spanReq{own: 2*time.Millisecond + time.Duration(i%5)*100*time.Microsecond, outside: time.Millisecond / 2, calls: []call{c}}
		})
	}
}

// stalledTail: every request waits each on one host; every 16th one also
// stalls stall in the service (a busy host's JVM), so its tail is partly
// the service's.
func stalledTail(each, stall time.Duration) func(t *testing.T) Input {
	return func(t *testing.T) Input {
		return tracedRun(t, "GET /apps/{id}/price", 10, 10, func(i int) spanReq {
			own := 2*time.Millisecond + time.Duration(i%5)*100*time.Microsecond
			if i%16 == 15 {
				own += stall
			}
			return spanReq{own: own, outside: time.Millisecond / 2, calls: []call{{span: "GET", host: "127.0.0.1", n: 1, each: each + time.Duration(i%11)*each/50}}}
		})
	}
}
