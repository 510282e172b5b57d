package report

import (
	"fmt"
	"strings"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/units"
)

// NotSent returns how many iterations ended because a request of theirs
// could not be built or was refused before any byte was written: no
// request, in no request figure (docs/accounting.md).
func (in *Input) NotSent() int64 {
	var n int64
	for _, s := range in.Run.Scenarios {
		n += s.NotSent
	}
	return n
}

// notSentTexts says, for each scenario with iterations ended before
// sending, how many and why: its most counted reason, and how many the
// others were. Every output carries them (Accounting).
func notSentTexts(r *metrics.Run) []string {
	var out []string
	for i, s := range r.Scenarios {
		if s.NotSent == 0 {
			continue
		}
		head := units.CountOf(s.NotSent, "iteration", "iterations") + " ended before sending"
		if len(r.Layout.Scenarios) > 1 {
			head = r.Layout.Scenarios[i].Name + ": " + head
		}
		out = append(out, head+" (no request: in no request figure, nor http_req_failed): "+notSentWhy(s.NotSent, s.NotSentWhy))
	}
	return out
}

// notSentWhy is the most counted reason, cleaned for a terminal, and how
// many iterations the others ended.
func notSentWhy(n int64, why []metrics.ErrorSample) string {
	if len(why) == 0 {
		return "no reason kept."
	}
	top := why[0]
	for _, w := range why[1:] {
		if w.Count > top.Count {
			top = w
		}
	}
	text := sample.CleanMessage(strings.TrimPrefix(top.Message, "not sent: "), false)
	if top.Count == n {
		return text
	}
	return fmt.Sprintf("%s (%s×; %s other)", text, units.Count(top.Count), units.Count(n-top.Count))
}

// notSentJSON is summary.json's account of a scenario's iterations ended
// before sending: how many, and the reasons kept with their counts and
// first seconds.
func notSentJSON(s *metrics.ScenarioTotal) map[string]any {
	reasons := []map[string]any{}
	for _, w := range s.NotSentWhy {
		reasons = append(reasons, map[string]any{"message": w.Message, "count": w.Count, "first_second": w.First})
	}
	return map[string]any{"iterations": s.NotSent, "reasons": reasons}
}

// names reports whether a threshold of the run is on metric.
func (in *Input) names(metric string) bool {
	for i := range in.Thresholds {
		if in.Thresholds[i].Metric == metric {
			return true
		}
	}
	return false
}
