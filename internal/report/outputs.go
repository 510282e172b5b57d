package report

import (
	"fmt"

	"github.com/loadlens/loadlens/internal/units"
)

// OutputResult is what became of the seconds a run sent to one metrics
// output (--out): Offered = Sent + Dropped.
type OutputResult struct {
	Output  string // KIND=URL, without credentials
	Offered int64  // seconds handed to the output
	Sent    int64  // seconds the store accepted
	Dropped int64  // seconds it did not get: its queue was full, or the write failed
	Reason  string // why, in a few words; "" when nothing was dropped
}

// OutputWarnings says, for every output that lost seconds, how many: the
// store's view of the run is incomplete, while run.db and this summary
// are not.
func OutputWarnings(in *Input) []string {
	var out []string
	for _, o := range in.Outputs {
		if o.Dropped == 0 {
			continue
		}
		out = append(out, fmt.Sprintf("output %s: %s of %s %s not delivered (%s); run.db and this summary hold every second",
			o.Output, units.Count(o.Dropped), units.CountOf(o.Offered, "second", "seconds"), units.Plural(o.Dropped, "was", "were"), o.Reason))
	}
	return out
}

// outputsJSON is the outputs section of summary.json.
func outputsJSON(in *Input) []map[string]any {
	var out []map[string]any
	for _, o := range in.Outputs {
		m := map[string]any{"output": o.Output, "offered_seconds": o.Offered, "sent_seconds": o.Sent, "dropped_seconds": o.Dropped}
		if o.Reason != "" {
			m["reason"] = o.Reason
		}
		out = append(out, m)
	}
	return out
}
