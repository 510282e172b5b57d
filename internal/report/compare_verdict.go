package report

import (
	"strings"

	"github.com/loadlens/loadlens/internal/compare"
	"github.com/loadlens/loadlens/internal/units"
)

// compareVerdicts says, for each group after the baseline, in one sentence
// what changed significantly over all endpoints, better and worse, and how
// many endpoints got significantly worse: the answer to "did the fix help,
// and by how much" before the tables that back it.
func compareVerdicts(r *compare.Report) []string {
	if len(r.Rows) == 0 || len(r.Groups) < 2 {
		return nil
	}
	base := r.Groups[0].Name
	var out []string
	for g := 1; g < len(r.Groups); g++ {
		better, worse := verdictChanges(r.Rows[0], g, r.Groups[g].Comparable)
		var s string
		switch {
		case len(better) > 0 && len(worse) == 0:
			s = r.Groups[g].Name + " is better than " + base + ": " + strings.Join(better, ", ") + "; nothing significantly worse"
		case len(worse) > 0 && len(better) == 0:
			s = r.Groups[g].Name + " is worse than " + base + ": " + strings.Join(worse, ", ") + "; nothing significantly better"
		case len(worse) > 0:
			s = r.Groups[g].Name + " against " + base + ": better " + strings.Join(better, ", ") + "; worse " + strings.Join(worse, ", ")
		default:
			s = r.Groups[g].Name + ": no significant change from " + base
		}
		s += " (all endpoints)"
		if n := worseEndpoints(r.Rows[1:], g); n > 0 && len(r.Rows) > 2 { // one endpoint's row is the all-endpoints row again
			s += "; " + units.CountOf(int64(n), "endpoint", "endpoints") + " significantly worse (tables below)"
		}
		if !r.Groups[g].Comparable {
			s += "; not at the baseline's load (*)"
		}
		out = append(out, s+".")
	}
	return out
}

// verdictChanges lists a row's significant changes of group g, as
// "p95 -33.9%", by direction; rates only when the group ran at the
// baseline's load (atLoad), since at another they follow the load.
func verdictChanges(row compare.Row, g int, atLoad bool) (better, worse []string) {
	for _, l := range row.Lines {
		if g >= len(l.Values) || l.Values[g].Delta == nil {
			continue
		}
		if b := l.Metric.Base(); !atLoad && (b == compare.TPS || b == compare.Succeeded) {
			continue
		}
		v := l.Values[g]
		text := l.Metric.String() + " " + compare.ChangeText(l.Metric, v)
		switch v.Verdict {
		case "better":
			better = append(better, text)
		case "worse":
			worse = append(worse, text)
		}
	}
	return better, worse
}

// worseEndpoints counts the endpoint rows in which group g got
// significantly worse on some metric.
func worseEndpoints(rows []compare.Row, g int) int {
	n := 0
	for _, row := range rows {
		if _, worse := verdictChanges(row, g, true); len(worse) > 0 {
			n++
		}
	}
	return n
}
