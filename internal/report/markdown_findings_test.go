package report

import (
	"strings"
	"testing"

	"github.com/loadlens/loadlens/internal/diagnose"
)

// TestMarkdownFindings: --summary-md carries the diagnosis, as the terminal
// does (trial C's sum.md had no trace of its CRITICAL finding): severity,
// title, seconds, the first two evidence lines, where report.html has the
// rest; the healthy statement when none; text from the run escaped.
func TestMarkdownFindings(t *testing.T) {
	ev := func(text string) diagnose.Evidence { return diagnose.Evidence{Figure: -1, Parts: diagnose.Words(text)} }
	errs := diagnose.Finding{Kind: "errors-at-load", Severity: diagnose.Critical, From: 3, To: 6,
		Parts:    diagnose.Words("Errors from 0:03 at a load served before: 5.42% of requests failed"),
		Evidence: []diagnose.Evidence{ev("first failing second: 3 of 60 requests failed"), ev("before 0:03: 3.91% failed"), ev("the same load was served before")},
		Remedies: []string{"read the error samples"}}
	check := diagnose.Finding{Kind: "check-failed", Severity: diagnose.Info, From: 1, To: 1,
		Parts: diagnose.Words(`"<b>is200</b>" failed 9 of 240 times`)}
	healthy := &diagnose.Verdict{Parts: diagnose.Words("no bottleneck found: throughput followed the offered load")}
	for _, tc := range []struct {
		name     string
		findings []diagnose.Finding
		healthy  *diagnose.Verdict
		dir      string
		want     []string
		not      []string
	}{
		{"two findings", []diagnose.Finding{errs, check}, nil, "results/x", []string{
			"### Findings\n\n- 🔴 **CRITICAL** Errors from 0:03 at a load served before: 5.42% of requests failed  \n  errors-at-load, 0:03–0:06 (4 seconds)\n" +
				"  - first failing second: 3 of 60 requests failed\n  - before 0:03: 3.91% failed\n" +
				"  - in report.html#finding-1: 1 more line of evidence and the usual remedies\n",
			"- ℹ️ **INFO** \"&lt;b&gt;is200&lt;/b&gt;\" failed 9 of 240 times  \n  check-failed, 0:01\n\n### Endpoints",
		}, []string{"the same load was served before", "<b>"}},
		{"no results directory", []diagnose.Finding{errs}, nil, "", []string{"  - before 0:03: 3.91% failed\n\n"}, []string{"report.html"}},
		{"healthy", nil, healthy, "results/x", []string{"### Findings\n\nNo bottleneck found: throughput followed the offered load\n\n"}, nil},
		{"not diagnosed", nil, nil, "results/x", nil, []string{"### Findings"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := fixture(t)
			in.Findings, in.Healthy, in.Dir = tc.findings, tc.healthy, tc.dir
			md := string(Markdown(in))
			for _, w := range tc.want {
				if !strings.Contains(md, w) {
					t.Errorf("lacks %q:\n%s", w, md)
				}
			}
			for _, n := range tc.not {
				if strings.Contains(md, n) {
					t.Errorf("has %q:\n%s", n, md)
				}
			}
		})
	}
}
