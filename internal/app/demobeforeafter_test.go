package app

import (
	"strings"
	"testing"

	"github.com/loadlens/loadlens/internal/demo"
	"github.com/loadlens/loadlens/internal/diagnose"
	"github.com/loadlens/loadlens/internal/report"
)

// TestBeforeAfterCountsEveryFinding: an info finding the improved run
// printed is counted, beside the bottlenecks, not left out of "8 → 0".
func TestBeforeAfterCountsEveryFinding(t *testing.T) {
	of := func(sev ...diagnose.Severity) *report.Input {
		in := &report.Input{Dir: "results/x"}
		for _, s := range sev {
			in.Findings = append(in.Findings, diagnose.Finding{Severity: s})
		}
		return in
	}
	before := of(diagnose.Critical, diagnose.Critical, diagnose.Warning)
	after := of(diagnose.Info)
	var b strings.Builder
	writeBeforeAfter(&b, demo.Session{}, before, after)
	if want := "findings: bottlenecks 3 → 0 · notes 0 → 1"; !strings.Contains(b.String(), want) {
		t.Errorf("want %q:\n%s", want, b.String())
	}
}
