package plan

import (
	"slices"
	"strings"

	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/threshold"
	"github.com/loadlens/loadlens/internal/yamldoc"
)

// factRecorded reports a threshold on a session protocol's fact
// (ws_reply_time) that no step of the test records: it could only fail,
// with "no data", once the whole run is over. An error rather than a
// warning, as a filter naming nothing is: no run of this file can pass it.
func (p *parser) factRecorded(f yamldoc.Field, metric string) bool {
	proto, fact, ok := sample.FactMetric(metric)
	if !ok || slices.ContainsFunc(p.customs, func(c threshold.Custom) bool { return c.Name == metric }) {
		return true
	}
	var have []string
	for _, e := range p.layout.layout.Endpoints {
		if e.Protocol != "" && !slices.Contains(have, e.Protocol) {
			have = append(have, e.Protocol)
		}
	}
	switch {
	case !slices.Contains(have, proto):
		steps := "the test has no session steps"
		if len(have) > 0 {
			steps = "its session steps are " + strings.Join(have, ":, ") + ":"
		}
		p.Errs.Add(f.Value.Key, f.Value.Path, "no %s: step in the test records it, so it would fail with no data (%s)", proto, steps)
		return false
	case fact == sample.FactReply && !slices.Contains(p.replies, proto):
		p.Errs.Add(f.Value.Key, f.Value.Path, "no %s: step has until:, which measures the reply time (from the last message sent to the message until: matches), so it would fail with no data; add until: to a %s: step", proto, proto)
		return false
	}
	return true
}
