package diagnose

// The independent reader's part for the trace sources: it reads the trace
// tables of run.db with SQL and recomputes trace_parts and
// trace_statements.calls figures as docs/findings.md defines them, with
// none of spans' or the rules' code.

import (
	"database/sql"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/spans"
	"github.com/loadlens/loadlens/internal/store"
)

// rawTraces is the trace tables as the reader sees them.
type rawTraces struct {
	byID  map[string]*rawTrace
	order []string
	calls []rawCalls // trace_statements
}

// rawTrace is one joined request and its parts.
type rawTrace struct {
	endpoint int
	sec      int
	dur      int64
	parts    []rawPart
}

type rawPart struct {
	kind, name string
	ns         int64
}

type rawCalls struct {
	endpoint   int
	kind, name string
	calls      int64
}

// readRawTraces reads trace_parts and trace_statements; nil when the file
// has no trace tables.
func readRawTraces(t *testing.T, db *sql.DB) *rawTraces {
	t.Helper()
	var n int
	if err := db.QueryRow(`SELECT count(*) FROM sqlite_master WHERE name = 'trace_parts'`).Scan(&n); err != nil || n == 0 {
		return nil
	}
	rt := &rawTraces{byID: map[string]*rawTrace{}}
	rows, err := db.Query(`SELECT trace_id, endpoint, sec, duration_ns, part, name, ns FROM trace_parts`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		var tr rawTrace
		var p rawPart
		if err := rows.Scan(&id, &tr.endpoint, &tr.sec, &tr.dur, &p.kind, &p.name, &p.ns); err != nil {
			t.Fatal(err)
		}
		cur := rt.byID[id]
		if cur == nil {
			cur = &tr
			rt.byID[id] = cur
			rt.order = append(rt.order, id)
		}
		cur.parts = append(cur.parts, p)
	}
	rows2, err := db.Query(`SELECT endpoint, part, name, calls FROM trace_statements`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows2.Close()
	for rows2.Next() {
		var c rawCalls
		if err := rows2.Scan(&c.endpoint, &c.kind, &c.name, &c.calls); err != nil {
			t.Fatal(err)
		}
		rt.calls = append(rt.calls, c)
	}
	return rt
}

// isTraceSource reports whether a figure's source is one of the trace tables'.
func isTraceSource(src string) bool {
	return strings.HasPrefix(src, "trace_parts{") || strings.HasPrefix(src, "trace_statements.calls{")
}

// endpointByLabel returns the index of the endpoint a filter names: its
// name, or "name (scenario s)" when another endpoint has the same name.
func (r *rawRun) endpointByLabel(label string) int {
	for i, e := range r.layout.Endpoints {
		l := e.Name
		for j, o := range r.layout.Endpoints {
			if j != i && o.Name == e.Name {
				l = e.Name + " (scenario " + r.scenario(e.Scenario) + ")"
			}
		}
		if l == label {
			return i
		}
	}
	return -1
}

// nearestRank is the q-th percentile of sorted values, nearest rank.
func nearestRank(sorted []int64, q float64) int64 {
	i := int(q/100*float64(len(sorted))+0.5) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}

// traceFigure recomputes a trace figure: over an endpoint's joined
// requests of a group (all, ">= p95", "p40-p60"), their count, the
// quantile or mean (in whole nanoseconds) of their duration, or the sum
// over the names listed (none: every name of the kind) of each one's mean
// time in whole nanoseconds; or an endpoint's calls of a statement.
func (r *rawRun) traceFigure(t *testing.T, f Figure) float64 {
	t.Helper()
	if r.traces == nil {
		t.Fatalf("figure %q reads %s, but run.db has no trace tables", f.What, f.Source)
	}
	name, filter := parseFilter(t, f.Source)
	ep := r.endpointByLabel(filter["endpoint"])
	if name == "trace_statements.calls" {
		var n int64
		for _, c := range r.traces.calls {
			if c.endpoint == ep && c.kind == filter["part"] && c.name == filter["name"] {
				n += c.calls
			}
		}
		return float64(n)
	}
	var all []*rawTrace
	var durs []int64
	first, last := -1, -1
	for _, id := range r.traces.order {
		if tr := r.traces.byID[id]; tr.endpoint == ep {
			all, durs = append(all, tr), append(durs, tr.dur)
			if first < 0 || tr.sec < first {
				first = tr.sec
			}
			last = max(last, tr.sec)
		}
	}
	if len(all) == 0 {
		t.Fatalf("figure %q: no joined requests of %q", f.What, filter["endpoint"])
	}
	if f.From != first || f.To != last {
		t.Errorf("figure %q covers %d–%d; the endpoint's joined requests ended in %d–%d", f.What, f.From, f.To, first, last)
	}
	sort.Slice(durs, func(i, j int) bool { return durs[i] < durs[j] })
	if f.Stat == StatQuantile {
		return time.Duration(nearestRank(durs, f.Q)).Seconds()
	}
	group := groupOf(t, f, all, durs, filter["traces"])
	n := int64(len(group))
	switch {
	case f.Stat == StatCount:
		return float64(n)
	case f.Stat != StatMean:
		t.Fatalf("figure %q: no recomputation of %s of %s", f.What, f.Stat, f.Source)
	case filter["part"] == "":
		var sum int64
		for _, tr := range group {
			sum += tr.dur
		}
		return time.Duration(sum / n).Seconds()
	}
	var total int64
	for _, nm := range namesOf(group, filter) {
		var sum int64
		for _, tr := range group {
			for _, p := range tr.parts {
				if p.kind == filter["part"] && p.name == nm {
					sum += p.ns
				}
			}
		}
		total += sum / n
	}
	return time.Duration(total).Seconds()
}

// groupOf returns the requests of a group: all, ">= p95" or "p40-p60".
func groupOf(t *testing.T, f Figure, all []*rawTrace, sorted []int64, g string) []*rawTrace {
	in := func(tr *rawTrace) bool { return true }
	switch g {
	case ">= p95":
		p95 := nearestRank(sorted, 95)
		in = func(tr *rawTrace) bool { return tr.dur >= p95 }
	case "p40-p60":
		lo, hi := nearestRank(sorted, 40), nearestRank(sorted, 60)
		in = func(tr *rawTrace) bool { return tr.dur >= lo && tr.dur <= hi }
	case "", "all":
	default:
		t.Fatalf("figure %q: unknown group %q", f.What, g)
	}
	var group []*rawTrace
	for _, tr := range all {
		if in(tr) {
			group = append(group, tr)
		}
	}
	return group
}

// namesOf returns the names a filter lists, or without a name every name
// of its part's kind in the group.
func namesOf(group []*rawTrace, filter map[string]string) []string {
	if nm, ok := filter["name"]; ok {
		return strings.Split(nm, "\n")
	}
	var names []string
	for _, tr := range group {
		for _, p := range tr.parts {
			if p.kind == filter["part"] && !containsString(names, p.name) {
				names = append(names, p.name)
			}
		}
	}
	return names
}

// writeTraces stores a traced run's joined requests and statements in
// run.db, as a run with a receiver does.
func writeTraces(t *testing.T, w *store.Writer, run any) {
	t.Helper()
	v, ok := joinedOf.Load(run)
	if !ok {
		return
	}
	st := v.(storedTraces)
	if err := w.WriteTraces(&store.Traces{Joined: st.joined, Statements: st.stmts,
		Stats: spans.Stats{Receiver: true, Sampled: len(st.joined)}}); err != nil {
		t.Fatal(err)
	}
}

// readTraces reads a run.db's traces as `loadlens summary` does.
func readTraces(t *testing.T, rd *store.Reader) []spans.Breakdown {
	t.Helper()
	st, err := rd.Traces()
	if err != nil {
		t.Fatal(err)
	}
	if st == nil {
		return nil
	}
	return spans.Summarize(st.Joined, st.Statements)
}
