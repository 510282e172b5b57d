package report

import (
	"sort"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/units"
)

// bySaid returns an error group's samples, the most counted first.
func bySaid(g metrics.ErrorGroup) []metrics.ErrorSample {
	ss := append([]metrics.ErrorSample(nil), g.Samples...)
	sort.SliceStable(ss, func(a, b int) bool { return ss[a].Count > ss[b].Count })
	return ss
}

// saidLines are the FAILURES table's sample lines of an error group, the
// most counted message first: the message alone when it is the group's
// only one (its count is the group's, but for seconds an older build
// sampled less), else each with its count ("310× 500 …: HikariPool-1 …"), then
// the failures no message counts ("3 others").
func saidLines(g metrics.ErrorGroup) []string {
	ss := bySaid(g)
	others := g.Others()
	if len(ss) == 1 {
		return []string{units.Escape(sample.ShortStatus(ss[0].Status, ss[0].Message))} // the target wrote it: no terminal controls
	}
	var out []string
	for _, s := range ss {
		out = append(out, units.Count(s.Count)+"× "+units.Escape(sample.ShortStatus(s.Status, s.Message)))
	}
	if others > 0 && len(ss) > 0 {
		out = append(out, units.CountOf(others, "other", "others"))
	}
	return out
}
