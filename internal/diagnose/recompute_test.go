package diagnose

// An independent reader of run.db for the figure tests: it reads the file
// with SQL, decodes each second's snapshot with the wire codec, and
// recomputes every source and statistic a figure can name with code of its
// own, none of it shared with the rules (docs/findings.md is the contract).

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/sample"

	_ "modernc.org/sqlite" // the driver run.db is read with
)

// rawRun is run.db as the independent reader sees it.
type rawRun struct {
	layout  sample.Layout
	elapsed time.Duration
	snaps   []*metrics.Snapshot // in second order
	series  map[string]*rawSeries
	traces  *rawTraces // the trace tables, nil without them
}

// rawSeries is one stored series.
type rawSeries struct {
	key, name, kind string
	labels          map[string]string
	secs            []int
	values          []float64
}

// readRaw reads a run.db file.
func readRaw(t *testing.T, path string) *rawRun {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	r := &rawRun{series: map[string]*rawSeries{}}
	var layout string
	if err := db.QueryRow(`SELECT value FROM meta WHERE key = 'layout'`).Scan(&layout); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(layout), &r.layout); err != nil {
		t.Fatal(err)
	}
	var ns int64
	if err := db.QueryRow(`SELECT elapsed_ns FROM finish`).Scan(&ns); err != nil {
		t.Fatalf("%s: read finish: %v", path, err)
	}
	r.elapsed = time.Duration(ns)
	r.traces = readRawTraces(t, db)
	rows, err := db.Query(`SELECT snapshot FROM seconds ORDER BY sec`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var blob []byte
		if err := rows.Scan(&blob); err != nil {
			t.Fatal(err)
		}
		s := new(metrics.Snapshot)
		if err := s.UnmarshalBinary(blob); err != nil {
			t.Fatal(err)
		}
		r.snaps = append(r.snaps, s)
	}
	rows.Close()
	rows, err = db.Query(`SELECT s.key, s.name, s.labels, s.kind, p.sec, p.value FROM series s JOIN series_points p ON p.series = s.id ORDER BY s.key, p.sec`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var key, name, labels, kind string
		var sec int
		var v float64
		if err := rows.Scan(&key, &name, &labels, &kind, &sec, &v); err != nil {
			t.Fatal(err)
		}
		s := r.series[key]
		if s == nil {
			s = &rawSeries{key: key, name: name, kind: kind, labels: map[string]string{}}
			if err := json.Unmarshal([]byte(labels), &s.labels); err != nil {
				t.Fatal(err)
			}
			r.series[key] = s
		}
		s.secs, s.values = append(s.secs, sec), append(s.values, v)
	}
	return r
}

// sec is the second of snapshot i.
func (r *rawRun) sec(i int) int { return r.snaps[i].Second }

// whole is the first second the run did not last to the end of.
func (r *rawRun) whole() int {
	return r.sec(0) + int(math.Floor(r.elapsed.Seconds()+0.001))
}

// perSec is a source's values: second → value.
type perSec map[int]float64

// parseFilter splits `name{k="v",…}` into the name and its filters.
func parseFilter(t *testing.T, src string) (string, map[string]string) {
	i := strings.IndexByte(src, '{')
	if i < 0 {
		return src, nil
	}
	f := map[string]string{}
	rest := strings.TrimSuffix(src[i+1:], "}")
	for rest != "" {
		eq := strings.IndexByte(rest, '=')
		k := rest[:eq]
		v, tail, err := unquotePrefix(rest[eq+1:])
		if err != nil {
			t.Fatalf("source %s: %v", src, err)
		}
		f[k] = v
		rest = strings.TrimPrefix(tail, ",")
	}
	return src[:i], f
}

// unquotePrefix reads one Go-quoted string from the start of s.
func unquotePrefix(s string) (string, string, error) {
	for j := 1; j < len(s); j++ {
		if s[j] == '"' && s[j-1] != '\\' {
			v, err := strconv.Unquote(s[:j+1])
			return v, s[j+1:], err
		}
	}
	return "", "", fmt.Errorf("unterminated %q", s)
}

func (r *rawRun) scenario(i int32) string { return r.layout.Scenarios[i].Name }

// endpoints returns the endpoint ids a filter keeps.
func (r *rawRun) endpoints(f map[string]string) []int {
	var out []int
	for i, e := range r.layout.Endpoints {
		name, scen := e.Name, r.scenario(e.Scenario)
		switch {
		case f["endpoint"] != "" && (name != f["endpoint"] || scen != f["scenario"]):
		case f["not_endpoint"] != "" && name == f["not_endpoint"] && (scen == f["not_endpoint_scenario"] || f["not_endpoint_scenario"] == "" && len(r.layout.Scenarios) == 1):
		default:
			out = append(out, i)
		}
	}
	return out
}

// mergedHist merges the latency histograms of some endpoints in a snapshot.
func mergedHist(s *metrics.Snapshot, eps []int) *metrics.Hist {
	h := metrics.NewHist()
	for _, i := range eps {
		if d := s.Endpoints[i].Duration; d != nil {
			h.Merge(d)
		}
	}
	return h
}

// client computes a client source from the snapshots.
func (r *rawRun) client(t *testing.T, src string) perSec {
	name, f := parseFilter(t, src)
	eps := r.endpoints(f)
	out := perSec{}
	var requests, iterations float64
	for _, s := range r.snaps {
		for _, e := range s.Endpoints {
			requests += float64(e.Requests)
			iterations += float64(e.Failures[sample.Interrupted]) // an iteration the end cut off in a request
		}
		for _, sc := range s.Scenarios {
			iterations += float64(sc.Iterations)
		}
	}
	perIter := 1.0
	if requests > 0 && iterations > 0 {
		perIter = requests / iterations
	}
	// Each scenario offers at its own requests per iteration, those cut off counted.
	scenReqs, scenIters := map[int32]float64{}, map[int]float64{}
	for _, s := range r.snaps {
		for i, e := range s.Endpoints {
			scenReqs[r.layout.Endpoints[i].Scenario] += float64(e.Requests)
			scenIters[int(r.layout.Endpoints[i].Scenario)] += float64(e.Failures[sample.Interrupted])
		}
		for i, sc := range s.Scenarios {
			scenIters[i] += float64(sc.Iterations)
		}
	}
	scenPerIter := func(i int) float64 {
		if scenReqs[int32(i)] > 0 && scenIters[i] > 0 {
			return scenReqs[int32(i)] / scenIters[i]
		}
		return perIter
	}
	// An arrival-rate scenario's arrivals still running at a second's end
	// are busy then: the least busy-VU peak of that second and the next two.
	busyAtEnd := func(i, sc int) float64 {
		if i < 0 {
			return 0
		}
		v := r.snaps[i].Scenarios[sc].VUs
		// Not into the seconds the run's end cut.
		whole := r.snaps[0].Second + int((r.elapsed+time.Millisecond)/time.Second)
		for k := i + 1; k < min(i+3, len(r.snaps)) && r.snaps[k].Second < whole; k++ {
			v = min(v, r.snaps[k].Scenarios[sc].VUs)
		}
		if v == 1 { // busy a millisecond a second, or across seconds: Little's law decides
			s := r.snaps[i].Scenarios[sc]
			return math.Min(1, float64(s.Iterations)*s.IterationDuration.Mean().Seconds())
		}
		return float64(v)
	}
	// A run of this build keeps what each arrival-rate schedule offered;
	// one of an earlier build keeps none, and the offered load is rebuilt.
	scheduled := false
	for _, s := range r.snaps {
		for si, sc := range s.Scenarios {
			scheduled = scheduled || (sc.Offered > 0 && r.layout.Scenarios[si].Model == "arrival-rate")
		}
	}
	var prevVUs float64
	for i, s := range r.snaps {
		var reqs, failed, vus, vusMax, iters, dropped, truncated, offered float64
		for _, ep := range eps {
			e := s.Endpoints[ep]
			reqs += float64(e.Requests)
			truncated += float64(e.Truncated)
			for k, n := range e.Failures {
				if f["kind"] == "" || sample.Kind(k).String() == f["kind"] {
					failed += float64(n)
				}
			}
		}
		lag := metrics.NewHist()
		for si, sc := range s.Scenarios {
			vus += float64(sc.VUs)
			vusMax += float64(sc.VUsMax)
			iters += float64(sc.Iterations)
			dropped += float64(sc.Dropped)
			started := float64(sc.Iterations + sc.Dropped)
			switch {
			case r.layout.Scenarios[si].Model != "arrival-rate":
			case scheduled:
				started = float64(sc.Offered)
			default:
				started = math.Max(started+busyAtEnd(i, si)-busyAtEnd(i-1, si), 0)
			}
			offered += started * scenPerIter(si)
			if sc.Lag != nil {
				lag.Merge(sc.Lag)
			}
		}
		h := mergedHist(s, eps)
		switch name {
		case SrcRequests:
			out[s.Second] = reqs
		case SrcFailed:
			out[s.Second] = failed
		case SrcMean, SrcP50, SrcP95:
			if h.Count() > 0 {
				out[s.Second] = map[string]float64{SrcMean: h.Mean().Seconds(), SrcP50: h.Quantile(50).Seconds(), SrcP95: h.Quantile(95).Seconds()}[name]
			}
		case SrcVUs:
			out[s.Second] = vus
		case SrcVUsAvg:
			if i > 0 {
				out[s.Second] = (prevVUs + vus) / 2
			}
		case SrcVUsMax:
			out[s.Second] = vusMax
		case SrcDropped:
			out[s.Second] = dropped
		case SrcTruncated:
			out[s.Second] = truncated
		case SrcOffered:
			out[s.Second] = offered
		case SrcLag:
			out[s.Second] = lag.Quantile(99).Seconds()
		case SrcCheckFails, SrcCheckTotal, SrcCheckNotJSON, SrcCheckNoValue:
			for ci, ck := range r.layout.Checks {
				ep := ""
				if ck.Endpoint >= 0 && int(ck.Endpoint) < len(r.layout.Endpoints) {
					ep = r.layout.Endpoints[ck.Endpoint].Name
				}
				if ck.Name == f["check"] && r.scenario(ck.Scenario) == f["scenario"] && ep == f["endpoint"] {
					out[s.Second] += float64(rawCheckCount(name, f["status"], s.Checks[ci]))
				}
			}
		case SrcServer:
			if i == 0 {
				n := 0
				for _, rs := range r.series {
					if !strings.HasPrefix(rs.name, "loadlens_") {
						n++
					}
				}
				out[s.Second] = float64(n)
			}
		default:
			t.Fatalf("unknown client source %q", src)
		}
		prevVUs = vus
	}
	return out
}

// stored reads a series as a source: its points, or a counter stored raw
// (a gauge named …_total, …_sum or …_count) as its increase per second.
func (r *rawRun) stored(t *testing.T, key string) perSec {
	s := r.series[key]
	if s == nil {
		t.Fatalf("no series %s in run.db", key)
	}
	out := perSec{}
	raw := s.kind == "gauge" && !strings.HasSuffix(s.name, "_cpu_count") && s.name != "pg_stat_activity_count" && s.name != "pg_locks_count" && // counts of CPUs, sessions and locks are gauges
		(strings.HasSuffix(s.name, "_total") || strings.HasSuffix(s.name, "_sum") || strings.HasSuffix(s.name, "_count"))
	for i := range s.secs {
		if !raw {
			out[s.secs[i]] = s.values[i]
			continue
		}
		if i > 0 && s.secs[i] > s.secs[i-1] && s.values[i] >= s.values[i-1] {
			out[s.secs[i]] = (s.values[i] - s.values[i-1]) / float64(s.secs[i]-s.secs[i-1])
		}
	}
	return out
}

// labelsBut returns a series' labels without some names, as a key suffix.
func labelsBut(labels map[string]string, drop ...string) string {
	var names []string
	for k := range labels {
		if !containsString(drop, k) {
			names = append(names, k)
		}
	}
	sort.Strings(names)
	var parts []string
	for _, k := range names {
		parts = append(parts, k+`="`+labels[k]+`"`)
	}
	return "{" + strings.Join(parts, ",") + "}"
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// keyLabels is the label part of a series key, "{}" for none.
func keyLabels(key string) (string, string) {
	if i := strings.IndexByte(key, '{'); i >= 0 {
		return key[:i], key[i:]
	}
	return key, "{}"
}

// source computes any source a figure can name.
func (r *rawRun) source(t *testing.T, src string) perSec {
	switch {
	case strings.HasPrefix(src, "capped(") && strings.HasSuffix(src, ")"): // before " / ", which it holds
		out := perSec{}
		for sec, v := range r.source(t, src[len("capped("):len(src)-1]) {
			out[sec] = math.Min(v, 1)
		}
		return out
	case strings.HasPrefix(src, "round(Σ "): // before " / ", which it holds
		parts := strings.SplitN(src[len("round(Σ "):len(src)-1], " / Σ ", 2)
		a, b := r.source(t, parts[0]), r.source(t, parts[1])
		var sa, sb float64
		for sec, v := range a {
			if w, ok := b[sec]; ok {
				sa, sb = sa+v, sb+w
			}
		}
		out := perSec{}
		for sec := range a {
			if _, ok := b[sec]; ok {
				out[sec] = math.Round(sa / sb)
			}
		}
		return out
	case strings.Contains(src, " / "):
		parts := strings.SplitN(src, " / ", 2)
		if inner, ok := strings.CutPrefix(parts[1], "latest("); ok {
			a, b := r.source(t, parts[0]), r.source(t, strings.TrimSuffix(inner, ")"))
			out := perSec{}
			for sec, v := range a {
				if d, ok := latestOf(b, sec); ok && d > 0 {
					out[sec] = v / d
				}
			}
			return out
		}
		a, b := r.source(t, parts[0]), r.source(t, parts[1])
		out := perSec{}
		for sec, v := range a {
			if d, ok := b[sec]; ok && d > 0 {
				out[sec] = v / d
			}
		}
		return out
	case strings.Contains(src, " min "):
		parts := strings.SplitN(src, " min ", 2)
		a, b := r.source(t, parts[0]), r.source(t, parts[1])
		out := perSec{}
		for sec, v := range a {
			if w, ok := b[sec]; ok {
				out[sec] = math.Min(v, w)
			}
		}
		return out
	case strings.Contains(src, " + "):
		parts := strings.SplitN(src, " + ", 2)
		a, b := r.source(t, parts[0]), r.source(t, parts[1])
		out := perSec{}
		for sec, v := range a {
			if w, ok := b[sec]; ok {
				out[sec] = v + w
			}
		}
		return out
	case strings.HasPrefix(src, "total("):
		name, f := parseFilter(t, src[len("total("):len(src)-1])
		var members []perSec
		secs := map[int]bool{}
		for key, s := range r.series {
			if s.name != name || !passes(s.labels, f) {
				continue
			}
			vals := r.stored(t, key)
			members = append(members, vals)
			for sec := range vals {
				secs[sec] = true
			}
		}
		out := perSec{}
		for sec := range secs {
			for _, m := range members {
				if v, ok := latestOf(m, sec); ok {
					out[sec] += v
				}
			}
		}
		return out
	case strings.HasPrefix(src, "increase("):
		s := r.series[src[len("increase("):len(src)-1]]
		out := perSec{}
		for i := 1; i < len(s.secs); i++ {
			if d := s.values[i] - s.values[i-1]; d >= 0 {
				out[s.secs[i]] = d
			} else {
				out[s.secs[i]] = s.values[i]
			}
		}
		return out
	case strings.HasPrefix(src, "cpu_busy("):
		return r.cpuBusy(t, src[len("cpu_busy("):len(src)-1])
	case strings.HasPrefix(src, "held(") && strings.Contains(src, ")@"):
		i := strings.LastIndex(src, ")@")
		return heldAt(r.source(t, src[len("held("):i]), r.source(t, src[i+2:]))
	case strings.HasPrefix(src, "own("):
		return r.freshestCores(t, src[len("own("):len(src)-1])
	case strings.HasPrefix(src, "busy(") || strings.HasPrefix(src, "sum("):
		inner := src[strings.IndexByte(src, '(')+1 : len(src)-1]
		name, want := keyLabels(inner)
		drop := []string{"cpu", "mode"}
		if strings.HasPrefix(src, "sum(") {
			drop = []string{"action", "cause", "gc"}
		}
		if requestCounter(name) { // summed over every label but its target's
			drop = nil
			for _, s := range r.series {
				if s.name == name {
					for k := range s.labels {
						if k != "role" && k != "target" && !containsString(drop, k) {
							drop = append(drop, k)
						}
					}
				}
			}
		}
		all, idle := perSec{}, perSec{}
		for key, s := range r.series {
			if s.name != name || labelsBut(s.labels, drop...) != want || (r.summed(name, want) && s.labels["cpu"] != "") {
				continue
			}
			for sec, v := range r.stored(t, key) {
				all[sec] += v
				if s.labels["mode"] == "idle" || s.labels["mode"] == "iowait" {
					idle[sec] += v
				}
			}
		}
		if strings.HasPrefix(src, "sum(") {
			return all
		}
		out := perSec{}
		for sec, v := range all {
			if v > 0 {
				out[sec] = 1 - idle[sec]/v
			}
		}
		return out
	case strings.HasPrefix(src, "cores("):
		out := perSec{}
		for sec, v := range r.stored(t, src[len("cores("):len(src)-1]) {
			out[sec] = v / 1e9
		}
		return out
	case strings.HasPrefix(src, "seconds("): // a pool's acquire time: pgxpool's in nanoseconds, OpenTelemetry's older in milliseconds
		key := src[len("seconds(") : len(src)-1]
		per := 1e-3
		if name, _ := keyLabels(key); strings.HasSuffix(name, "_ns") {
			per = 1e-9
		}
		out := perSec{}
		for sec, v := range r.stored(t, key) {
			out[sec] = v * per
		}
		return out
	case strings.HasPrefix(src, "one("):
		s := r.series[src[len("one("):len(src)-1]]
		out := perSec{}
		for _, sec := range s.secs {
			out[sec] = 1
		}
		return out
	case strings.HasPrefix(src, "label("):
		inner := src[len("label(") : len(src)-1]
		label, key, _ := strings.Cut(inner, ", ")
		s := r.series[key]
		v, err := strconv.ParseFloat(s.labels[label], 64)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		out := perSec{}
		for _, sec := range s.secs {
			out[sec] = v
		}
		return out
	}
	if _, ok := r.series[src]; ok {
		return r.stored(t, src)
	}
	return r.client(t, src)
}

// recompute computes a figure again from run.db; ok is false for figures
// that are not measurements (rule thresholds).
func (r *rawRun) recompute(t *testing.T, figs []Figure, i int) (float64, bool) {
	f := figs[i]
	if f.Stat.Derived() {
		a, okA := r.recompute(t, figs, f.Of[0])
		if f.Stat == StatRank {
			return figs[f.Of[0]].Q / 100, okA
		}
		b, okB := r.recompute(t, figs, f.Of[1])
		switch f.Stat {
		case StatRatio:
			return ratioOrZero(a, b), okA && okB
		case StatProduct:
			return a * b, okA && okB
		case StatChange:
			return ratioOrZero(a, b) - 1, okA && okB
		case StatDiff:
			return a - b, okA && okB
		}
	}
	if isTraceSource(f.Source) {
		return r.traceFigure(t, f), true
	}
	switch f.Stat {
	case StatLimit:
		return 0, false
	case StatOnset, StatSecond:
		if f.From != f.To {
			t.Errorf("figure %q names a second but covers %d–%d", f.What, f.From, f.To)
		}
		return float64(f.From), true
	case StatSpan:
		return float64(f.To - f.From + 1), true
	case StatQuantile:
		name, filter := parseFilter(t, f.Source)
		if name == SrcLagHist {
			h := metrics.NewHist()
			for _, s := range r.snaps {
				for i := range s.Scenarios {
					if l := s.Scenarios[i].Lag; l != nil && s.Second >= f.From && s.Second <= f.To {
						h.Merge(l)
					}
				}
			}
			return h.Quantile(f.Q).Seconds(), true
		}
		if name != SrcDuration {
			t.Fatalf("quantile of %s", f.Source)
		}
		h := metrics.NewHist()
		for _, s := range r.snaps {
			if s.Second >= f.From && s.Second <= f.To {
				h.Merge(mergedHist(s, r.endpoints(filter)))
			}
		}
		return h.Quantile(f.Q).Seconds(), true
	case StatTau:
		if a, b, two := strings.Cut(f.Source, " vs "); two {
			xs, ys := r.pairs(t, r.source(t, b), r.source(t, a), f.From, f.To)
			return tauOf(xs, ys), true
		}
	}
	vals := r.source(t, f.Source)
	if f.Stat == StatValue {
		v, ok := vals[f.From]
		if !ok {
			t.Errorf("figure %q: %s has no value at %ds", f.What, f.Source, f.From)
		}
		return v, true
	}
	var secs []int
	for sec := range vals {
		if sec >= f.From && sec <= f.To {
			secs = append(secs, sec)
		}
	}
	sort.Ints(secs)
	xs := make([]float64, len(secs))
	ts := make([]float64, len(secs))
	for j, sec := range secs {
		xs[j], ts[j] = vals[sec], float64(sec)
	}
	if f.Stat == StatCount {
		return float64(len(xs)), true
	}
	if len(xs) == 0 {
		t.Errorf("figure %q: %s has no value in %d–%d", f.What, f.Source, f.From, f.To)
		return math.NaN(), true
	}
	sorted := append([]float64(nil), xs...)
	sort.Float64s(sorted)
	switch f.Stat {
	case StatSum, StatMean:
		var sum float64
		for _, x := range xs {
			sum += x
		}
		if f.Stat == StatMean {
			return sum / float64(len(xs)), true
		}
		return sum, true
	case StatMedian:
		m := len(sorted) / 2
		if len(sorted)%2 == 1 {
			return sorted[m], true
		}
		return (sorted[m-1] + sorted[m]) / 2, true
	case StatMax:
		return sorted[len(sorted)-1], true
	case StatMin:
		return sorted[0], true
	case StatSlope:
		var slopes []float64
		for a := range ts {
			for b := a + 1; b < len(ts); b++ {
				slopes = append(slopes, (xs[b]-xs[a])/(ts[b]-ts[a]))
			}
		}
		sort.Float64s(slopes)
		m := len(slopes) / 2
		if len(slopes)%2 == 1 {
			return slopes[m], true
		}
		return (slopes[m-1] + slopes[m]) / 2, true
	case StatTau:
		return tauOf(ts, xs), true
	}
	t.Fatalf("figure %q: no recomputation for statistic %s", f.What, f.Stat)
	return 0, false
}

// pairs returns the values of two sources at the seconds both have one.
func (r *rawRun) pairs(t *testing.T, a, b perSec, from, to int) ([]float64, []float64) {
	var secs []int
	for sec := range a {
		if _, ok := b[sec]; ok && sec >= from && sec <= to {
			secs = append(secs, sec)
		}
	}
	sort.Ints(secs)
	var xs, ys []float64
	for _, sec := range secs {
		xs, ys = append(xs, a[sec]), append(ys, b[sec])
	}
	return xs, ys
}

// tauOf is Kendall's tau-a of the pairs.
func tauOf(xs, ys []float64) float64 {
	n := len(xs)
	if n < 2 {
		return 0
	}
	var s float64
	for i := range xs {
		for j := i + 1; j < n; j++ {
			d := (xs[j] - xs[i]) * (ys[j] - ys[i])
			switch {
			case d > 0:
				s++
			case d < 0:
				s--
			}
		}
	}
	return s / (float64(n) * float64(n-1) / 2)
}

func ratioOrZero(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}

// sameNumber compares a figure with its recomputation, allowing for the
// rounding of floating-point sums taken in another order.
func sameNumber(a, b float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return false
	}
	return math.Abs(a-b) <= 1e-9*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}

// latestOf returns a source's value at its latest second at or before sec,
// if that is at most 11 seconds old (two 5-s scrapes and a second).
func latestOf(vals perSec, sec int) (float64, bool) {
	best := -1
	for s := range vals {
		if s <= sec && s > best {
			best = s
		}
	}
	if best < 0 || sec-best > 11 {
		return 0, false
	}
	return vals[best], true
}

// passes reports whether labels pass total()'s filters: equal values, and
// pod_prefix a prefix of the pod label.
func passes(labels, f map[string]string) bool {
	for k, v := range f {
		if k == "pod_prefix" {
			if !strings.HasPrefix(labels["pod"], v) {
				return false
			}
		} else if labels[k] != v {
			return false
		}
	}
	return true
}

// summed reports whether a host's CPU time is stored summed over CPUs
// (a series without a cpu label): its per-CPU series are kept beside.
func (r *rawRun) summed(name, host string) bool {
	for _, s := range r.series {
		if s.name == name && s.labels["cpu"] == "" && labelsBut(s.labels, "mode") == host {
			return true
		}
	}
	return false
}

// cpuBusy recomputes one CPU's busy share from its modes: 1 − (idle +
// iowait) / all of them, all being 1 a second when only idle and iowait
// are stored; within 0..1.
func (r *rawRun) cpuBusy(t *testing.T, key string) perSec {
	name, want := keyLabels(key)
	idle, all := perSec{}, perSec{}
	others := false
	for k, s := range r.series {
		if s.name != name || labelsBut(s.labels, "mode") != want || s.labels["mode"] == "" {
			continue
		}
		m := s.labels["mode"]
		others = others || (m != "idle" && m != "iowait")
		for sec, v := range r.stored(t, k) {
			all[sec] += v
			if m == "idle" || m == "iowait" {
				idle[sec] += v
			}
		}
	}
	out := perSec{}
	for sec, v := range idle {
		d := 1.0
		if others {
			d = all[sec]
		}
		if d > 0 {
			out[sec] = math.Min(1, math.Max(0, 1-v/d))
		}
	}
	return out
}

// requestCounter reports whether name is a balancer's or an app's request
// counter (lbrefused.go), which the errors sum over a target's series.
func requestCounter(name string) bool {
	if slices.Contains(appCounters, name) {
		return true
	}
	for _, l := range lbCounters {
		if l.name == name {
			return true
		}
	}
	return false
}

// rawCheckCount is a check source's count in one snapshot's outcomes of a
// check, of the answers of status when it is not "".
func rawCheckCount(name, status string, c metrics.CheckSecond) int64 {
	switch name {
	case SrcCheckNotJSON:
		return c.NotJSON
	case SrcCheckNoValue:
		return c.NoValue
	}
	if status != "" {
		c.Passes, c.Fails = 0, 0
		for _, st := range c.Statuses {
			if strconv.Itoa(st.Status) == status {
				c.Passes, c.Fails = st.Passes, st.Fails
			}
		}
	}
	if name == SrcCheckTotal {
		return c.Passes + c.Fails
	}
	return c.Fails
}

// heldAt is, at each second of at, the latest value of src at or before it
// however old, or src's first value before it had one.
func heldAt(src, at perSec) perSec {
	var secs []int
	for sec := range src {
		secs = append(secs, sec)
	}
	sort.Ints(secs)
	out := perSec{}
	for sec := range at {
		if len(secs) == 0 {
			break
		}
		i := sort.SearchInts(secs, sec+1) - 1
		out[sec] = src[secs[max(i, 0)]]
	}
	return out
}

// freshestCores is a process's cores (key: its CPU-time counter) at each
// second its counter or its role's one container read them, the larger
// where both did.
func (r *rawRun) freshestCores(t *testing.T, key string) perSec {
	name, labels := keyLabels(key)
	per := 1.0
	if strings.HasSuffix(name, "_ns_total") {
		per = 1e-9
	}
	out := perSec{}
	for sec, v := range r.stored(t, key) {
		out[sec] = v * per
	}
	role := r.series[key].labels["role"]
	var cont []string
	for k, s := range r.series {
		if s.name == "container_cpu_usage_seconds_total" && role != "" && s.labels["role"] == role {
			cont = append(cont, k)
		}
	}
	if len(cont) != 1 {
		t.Fatalf("own(%s) %s: %d containers of role %q, want 1", key, labels, len(cont), role)
	}
	for sec, v := range r.stored(t, cont[0]) {
		if w, ok := out[sec]; !ok || v > w {
			out[sec] = v
		}
	}
	return out
}
