package diagnose

import (
	"strings"

	"github.com/loadlens/loadlens/internal/series"
)

// maxPointAge is how old a scraped value may be and still stand for a later
// second: two scrapes at the slowest default interval, plus one second.
const maxPointAge = 11

// Series-derived thresholds shared by the server-side rules: a condition is
// sustained when it holds at minPoints scrapes in a row spanning at least
// minSpan seconds, so a single scrape never proves anything, whether the
// target is scraped every second or every five.
const (
	minPoints = 2
	minSpan   = 3
)

// perSecond returns a series as per-second values: a Rate series as it is,
// a counter that was stored raw (its name ends in _total, _sum or _count
// and it is a Gauge) as its increase per second, skipping resets, and any
// other gauge as sampled.
func perSecond(s *series.Series) []series.Point {
	if s.Kind == series.Rate || !counterName(s.Name) {
		return s.Points
	}
	var out []series.Point
	for i := 1; i < len(s.Points); i++ {
		a, b := s.Points[i-1], s.Points[i]
		if dt := b.Sec - a.Sec; dt > 0 && b.Value >= a.Value {
			out = append(out, series.Point{Sec: b.Sec, Value: (b.Value - a.Value) / float64(dt)})
		}
	}
	return out
}

// counterName reports whether a name is a counter's, so that a gauge of
// that name holds it raw. A CPU count (Micrometer's system_cpu_count, the
// node preset's node_cpu_count) and postgres_exporter's sessions by state
// (pg_stat_activity_count), locks by mode (pg_locks_count) and
// OpenTelemetry's connections by state (db_client_connection_count) are
// gauges, whatever their suffix says.
func counterName(name string) bool {
	if strings.HasSuffix(name, "_cpu_count") || name == pgSessions || name == pgLocks || name == otelConnCount {
		return false
	}
	return strings.HasSuffix(name, "_total") || strings.HasSuffix(name, "_sum") || strings.HasSuffix(name, "_count")
}

// valueAt returns the value of points at sec: the latest point at or before
// it, if not older than maxPointAge.
func valueAt(points []series.Point, sec int) (float64, bool) {
	for i := len(points) - 1; i >= 0; i-- {
		if p := points[i]; p.Sec <= sec {
			return p.Value, sec-p.Sec <= maxPointAge
		}
	}
	return 0, false
}

// sibling returns the series named name with exactly the labels of s
// (the same pool of the same scrape), or nil.
func sibling(set series.Set, name string, s *series.Series) *series.Series {
	return siblingBut(set, name, s, nil)
}

// siblingBut is sibling with the labels in skip left out of the match.
func siblingBut(set series.Set, name string, s *series.Series, skip []string) *series.Series {
	for _, o := range set {
		if o.Name == name && sameLabels(o.Labels, s.Labels, skip) {
			return o
		}
	}
	return nil
}

// sameLabels compares two sorted label lists, ignoring the names in skip.
func sameLabels(a, b []series.Label, skip []string) bool {
	a, b = without(a, skip), without(b, skip)
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func without(ls []series.Label, skip []string) []series.Label {
	if len(skip) == 0 {
		return ls
	}
	var out []series.Label
	for _, l := range ls {
		drop := false
		for _, s := range skip {
			drop = drop || l.Name == s
		}
		if !drop {
			out = append(out, l)
		}
	}
	return out
}

// scrapeOf returns what identifies the scrape a series came from: its
// target label, else its role label, else "".
func scrapeOf(s *series.Series) (name, value string) {
	if v := s.Label("target"); v != "" {
		return "target", v
	}
	if v := s.Label("role"); v != "" {
		return "role", v
	}
	return "", ""
}

// describe names where a series comes from for a title: its labels except
// the ones in skip, e.g. "pool=HikariPool-1, role=app".
func describe(s *series.Series, skip ...string) string {
	var parts []string
	for _, l := range without(s.Labels, skip) {
		parts = append(parts, l.Name+"="+l.Value)
	}
	return strings.Join(parts, ", ")
}

// roleName is a short name of the process a series describes: "DB" for
// role=db, "App" for role=app, else the role or target as given.
func roleName(s *series.Series) string {
	switch r := s.Label("role"); r {
	case "db":
		return "DB"
	case "app":
		return "App"
	case "":
		if t := s.Label("target"); t != "" {
			return t
		}
		return "Target"
	default:
		return r
	}
}

// sustained returns the first run of points (by index) for which ok holds
// at least minPoints times in a row over at least minSpan seconds.
func sustained(points []series.Point, ok func(i int) bool) (span, bool) {
	runs := sustainedRuns(points, ok)
	if len(runs) == 0 {
		return span{}, false
	}
	return runs[0], true
}

// sustainedRuns returns every maximal run of points (by index) for which ok
// holds at least minPoints times in a row over at least minSpan seconds.
func sustainedRuns(points []series.Point, ok func(i int) bool) []span {
	var out []span
	start := -1
	for i := 0; i <= len(points); i++ {
		if i < len(points) && ok(i) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 && i-start >= minPoints && points[i-1].Sec-points[start].Sec+1 >= minSpan {
			out = append(out, span{start, i - 1})
		}
		start = -1
	}
	return out
}

// lastHolding extends a sustained run to the last point for which ok still
// holds anywhere after it, so To covers the whole episode.
func lastHolding(points []series.Point, from int, ok func(i int) bool) int {
	last := from
	for i := from; i < len(points); i++ {
		if ok(i) {
			last = i
		}
	}
	return last
}

// titled names a series for a title: "process_cpu_usage, role=app".
func titled(s *series.Series) string {
	if d := describe(s); d != "" {
		return s.Name + ", " + d
	}
	return s.Name
}
