package spans

import (
	"slices"
	"strings"
	"time"

	"github.com/loadlens/loadlens/internal/sample"
)

// The kinds of Part: where a request's time went.
const (
	PartDB      = "db"      // database calls, per statement
	PartCache   = "cache"   // cache calls (db.system redis, memcached, …), per operation
	PartHTTP    = "http"    // outgoing HTTP calls, per host
	PartService = "service" // the service itself: its server span minus the calls above
	PartOutside = "outside" // what loadlens measured beyond the server span: network, queueing before the service saw it
)

// maxDeps bounds the calls of one trace attribution looks at; its sweep is
// quadratic in them.
const maxDeps = 500

// maxName bounds a statement's text as a part's name.
const maxName = 160

// MaxStatements bounds the statements and cache operations kept per
// endpoint: past it, calls count as OtherStatements, so a service that
// sends each statement with its values (which normalize cannot always
// fold) does not grow run.db and the report without bound.
const MaxStatements = 50

// OtherStatements names the statements of an endpoint past MaxStatements.
const OtherStatements = "(other statements)"

// Part is some of a request's time, and where it went.
type Part struct {
	Kind string        // one of the Part kinds
	Name string        // the statement, cache operation or host; "" for service and outside
	Span string        // the name of a span that took it, as evidence (in a Breakdown, its label: see relabel); "" for service and outside
	Time time.Duration // exclusive: the parts of a trace add up to the request's duration
}

// Trace is one sampled request joined with the spans the target exported.
type Trace struct {
	Request
	Server time.Duration // the length of the service's entry span
	Parts  []Part        // largest first
}

// Statement is what an endpoint's requests spent in one database statement
// or cache operation, from the spans' own lengths (not exclusive).
type Statement struct {
	Endpoint int32
	Kind     string // PartDB or PartCache
	System   string // db.system
	Name     string // the statement text, normalized (literals as ?), or the span's name when the text was not recorded
	Span     string // the span's name (in a Breakdown, its label: see relabel)
	Calls    int
	Total    time.Duration
	Max      time.Duration
}

// Join attributes each request's time to the spans of its trace. Requests
// without spans are counted in unmatched.
func Join(reqs []Request, all []Span) (traces []Trace, stmts []Statement, unmatched int) {
	byTrace := map[sample.TraceID][]int{}
	for i := range all {
		byTrace[all[i].Trace] = append(byTrace[all[i].Trace], i)
	}
	type stmtKey struct {
		endpoint          int32
		kind, system, key string
	}
	agg := map[stmtKey]*Statement{}
	var order []stmtKey
	nm := newNamer()
	for _, r := range reqs {
		idx, ok := byTrace[r.Trace]
		if !ok {
			unmatched++
			continue
		}
		ss := make([]*Span, len(idx))
		for i, j := range idx {
			ss[i] = &all[j]
		}
		t, deps := attribute(r, ss, nm)
		traces = append(traces, t)
		for _, d := range deps {
			if d.kind != PartDB && d.kind != PartCache {
				continue
			}
			k := stmtKey{r.Endpoint, d.kind, d.s.DBSystem, d.name}
			st := agg[k]
			if st == nil {
				st = &Statement{Endpoint: r.Endpoint, Kind: d.kind, System: d.s.DBSystem, Name: d.name, Span: d.span}
				agg[k] = st
				order = append(order, k)
			}
			if d.calls { // a span under the statement's (reading its rows) is the same call
				st.Calls++
			}
			st.Total += d.s.Duration()
			st.Max = max(st.Max, d.s.Duration())
		}
	}
	for _, k := range order {
		stmts = append(stmts, *agg[k])
	}
	slices.SortStableFunc(stmts, func(a, b Statement) int {
		if a.Endpoint != b.Endpoint {
			return int(a.Endpoint - b.Endpoint)
		}
		return int(b.Total - a.Total)
	})
	return traces, stmts, unmatched
}

// dep is a call of the service, clipped to its entry span.
type dep struct {
	s          *Span
	kind, name string
	span       string // the name of the span that names it
	calls      bool   // the span is the call itself, not one under it (reading the rows)
	from, to   time.Time
}

// attribute splits one request's duration: the entry span's length goes
// to the calls made under it — a stretch where k calls overlap is shared
// equally between them — and the rest to the service; what loadlens
// measured beyond the entry span is outside.
func attribute(r Request, ss []*Span, nm *namer) (Trace, []dep) {
	root := entry(ss)
	t := Trace{Request: r, Server: root.Duration()}
	deps := callsOf(r.Endpoint, root, ss, nm)
	times := map[[2]string]time.Duration{}
	spanOf := map[[2]string]string{}
	var service time.Duration
	bounds := []time.Time{root.Start, later(root.End, root.Start)} // an end before the start has no length, not a negative one
	for _, d := range deps {
		bounds = append(bounds, d.from, d.to)
	}
	slices.SortFunc(bounds, func(a, b time.Time) int { return a.Compare(b) })
	bounds = slices.Compact(bounds)
	for i := 0; i+1 < len(bounds); i++ {
		a, b := bounds[i], bounds[i+1]
		var active []int
		for j, d := range deps {
			if !d.from.After(a) && !d.to.Before(b) {
				active = append(active, j)
			}
		}
		if len(active) == 0 {
			service += b.Sub(a)
			continue
		}
		share := b.Sub(a) / time.Duration(len(active))
		rest := b.Sub(a) - share*time.Duration(len(active)) // the nanoseconds a division leaves go to the first, so parts add up exactly
		for n, j := range active {
			k := [2]string{deps[j].kind, deps[j].name}
			times[k] += share
			if n == 0 {
				times[k] += rest
			}
			spanOf[k] = deps[j].span
		}
	}
	for k, d := range times {
		t.Parts = append(t.Parts, Part{Kind: k[0], Name: k[1], Span: spanOf[k], Time: d})
	}
	t.Parts = append(t.Parts, Part{Kind: PartService, Time: service})
	if out := r.Duration - t.Server; out > 0 {
		t.Parts = append(t.Parts, Part{Kind: PartOutside, Time: out})
	}
	sortParts(t.Parts)
	return t, deps
}

// callsOf returns the calls the service made under its entry span root:
// its own spans that are a database, cache or HTTP call, clipped to root.
func callsOf(endpoint int32, root *Span, ss []*Span, nm *namer) []dep {
	byID := make(map[SpanID]*Span, len(ss))
	for _, s := range ss {
		byID[s.ID] = s
	}
	var deps []dep
	for _, s := range ss {
		if s == root || s.Service != root.Service || len(deps) == maxDeps {
			continue
		}
		d := dep{s: s, from: later(s.Start, root.Start), to: earlier(s.End, root.End)}
		switch {
		case s.DBSystem != "" && IsCache(s.DBSystem):
			d.kind, d.name, d.span, d.calls = PartCache, s.Name, s.Name, true
		case s.DBSystem != "":
			named := statementOf(s, byID)
			d.kind, d.name, d.span, d.calls = PartDB, nm.statement(named), named.Name, named == s
		case s.Kind == KindClient && s.Host != "":
			d.kind, d.name, d.span = PartHTTP, s.Host, s.Name
		default:
			continue // internal work: the service's own time
		}
		if d.kind != PartHTTP && !nm.keep(endpoint, d.kind, d.name) {
			d.name, d.span = OtherStatements, OtherStatements
		}
		if d.to.After(d.from) {
			deps = append(deps, d)
		}
	}
	return deps
}

// sortParts orders parts largest first, then by kind and name, so that
// equal inputs give equal outputs.
func sortParts(ps []Part) {
	slices.SortFunc(ps, func(a, b Part) int {
		if a.Time != b.Time {
			return int(b.Time - a.Time)
		}
		if c := strings.Compare(a.Kind, b.Kind); c != 0 {
			return c
		}
		return strings.Compare(a.Name, b.Name)
	})
}

// entry returns the service's entry span: a server span whose parent is
// not in the trace (its parent is loadlens's own request), the earliest and
// then the longest; failing that, any span whose parent is not in the trace.
func entry(ss []*Span) *Span {
	ids := map[SpanID]bool{}
	for _, s := range ss {
		ids[s.ID] = true
	}
	var best *Span
	better := func(s *Span) bool {
		if best == nil {
			return true
		}
		if (s.Kind == KindServer) != (best.Kind == KindServer) {
			return s.Kind == KindServer
		}
		if !s.Start.Equal(best.Start) {
			return s.Start.Before(best.Start)
		}
		return s.Duration() > best.Duration()
	}
	for _, s := range ss {
		if !ids[s.Parent] && better(s) {
			best = s
		}
	}
	if best == nil { // every parent in the trace: a cycle, which no tracer makes
		best = ss[0]
	}
	return best
}

// statementOf returns the span that names a database call: itself when it
// records its statement, else its nearest database ancestor that does (a
// driver's span for reading the rows under the query's span).
func statementOf(s *Span, byID map[SpanID]*Span) *Span {
	for p, hops := byID[s.Parent], 0; p != nil && hops < 8; p, hops = byID[p.Parent], hops+1 {
		if s.Statement != "" || p.DBSystem == "" {
			break
		}
		if p.Statement != "" {
			return p
		}
	}
	return s
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

func earlier(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}
