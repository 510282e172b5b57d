package report

import (
	"fmt"
	"strings"

	"github.com/loadlens/loadlens/internal/diagnose"
	"github.com/loadlens/loadlens/internal/units"
)

// mdEvidenceLines is how many evidence lines a finding shows in the
// Markdown summary: a job summary is read at a glance, report.html has all.
const mdEvidenceLines = 2

// mdSeverity marks a finding's severity as the headline marks the verdict.
var mdSeverity = map[diagnose.Severity]string{diagnose.Critical: "🔴", diagnose.Warning: "🟠", diagnose.Info: "ℹ️"}

// mdFindings writes the diagnosis: each finding's severity, title, seconds
// and first evidence lines, where report.html has the rest; or, with no
// finding, the statement of what was checked.
func mdFindings(sb *strings.Builder, in *Input) {
	if len(in.Findings) == 0 {
		if h := HealthyText(in.Healthy); h != "" {
			sb.WriteString("### Findings\n\n" + mdEscape(sentence(h)) + "\n\n")
		}
		return
	}
	sb.WriteString("### Findings\n\n")
	for i := range in.Findings {
		f := &in.Findings[i]
		fmt.Fprintf(sb, "- %s **%s** %s  \n  %s, %s\n", mdSeverity[f.Severity], strings.ToUpper(f.Severity.String()),
			mdEscape(FindingTitle(f)), f.Kind, spanText(f.From, f.To))
		for k := range f.Evidence {
			if k == mdEvidenceLines {
				break
			}
			fmt.Fprintf(sb, "  - %s\n", mdEscape(EvidenceText(f, &f.Evidence[k])))
		}
		if more := mdMore(f); more != "" && in.Dir != "" {
			fmt.Fprintf(sb, "  - in report.html#finding-%d: %s\n", i+1, more)
		}
	}
	sb.WriteString("\n")
}

// mdMore names what of a finding the Markdown leaves to report.html: the
// rest of its evidence and its remedies; "" for nothing.
func mdMore(f *diagnose.Finding) string {
	var parts []string
	if n := len(f.Evidence) - mdEvidenceLines; n > 0 {
		parts = append(parts, units.CountOf(int64(n), "more line", "more lines")+" of evidence")
	}
	if len(f.Remedies) > 0 {
		parts = append(parts, "the usual remedies")
	}
	return strings.Join(parts, " and ")
}
