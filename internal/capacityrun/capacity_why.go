package capacityrun

import (
	"fmt"
	"io"
	"strings"

	"github.com/loadlens/loadlens/internal/capacity"
	"github.com/loadlens/loadlens/internal/diagnose"
	"github.com/loadlens/loadlens/internal/report"
	"github.com/loadlens/loadlens/internal/units"
)

// writeWhy prints why the first failing step failed: its diagnosis. When
// the search judged that step the target's on a busy host, its judgement
// comes first, the target's findings next, and a finding that blames the
// generator's host only last, as a note: the search weighed the host's
// share (Record.Stands: the target's own errors or latency), so "the
// numbers are not the target's" would contradict the verdict it explains.
func writeWhy(out io.Writer, res capacity.Result, why []diagnose.Finding) {
	own := firstFailing(res).Stands
	if len(why) == 0 && own == "" {
		return
	}
	fmt.Fprintln(out, "\n  why the first failing step failed:")
	if own != "" {
		fmt.Fprint(out, units.Wrap(own, units.Columns, "    TARGET: ", "      "))
	}
	var notes []string
	for i := range why {
		f := &why[i]
		if own != "" && distrusts(f) {
			notes = append(notes, notTheTargets(f))
			continue
		}
		fmt.Fprint(out, units.Wrap(report.FindingTitle(f), units.Columns, "    "+strings.ToUpper(f.Severity.String())+": ", "      "))
	}
	for _, n := range notes {
		fmt.Fprint(out, units.Wrap(n+" (the host's share, which the judgement above leaves out)", units.Columns, "    NOTE: ", "      "))
	}
}

// firstFailing is the first judged step that failed the SLO, or a zero
// Record when none did.
func firstFailing(res capacity.Result) capacity.Record {
	for _, st := range res.Steps {
		if !st.Passed && st.Judged {
			return st
		}
	}
	return capacity.Record{}
}
