package capacityrun

import (
	"bytes"
	"strings"
	"testing"

	"github.com/loadlens/loadlens/internal/capacity"
	"github.com/loadlens/loadlens/internal/diagnose"
)

// TestWhyTheFirstFailingStepFailed: a step the search judged the target's
// on a busy host (trial A's fast2, step 3: p95 638 ms, 83.2 of 90 req/s)
// is explained by that judgement first; the host's finding follows as a
// note and no longer says "the numbers are not the target's" (issue 20).
func TestWhyTheFirstFailingStepFailed(t *testing.T) {
	host := diagnose.Finding{Kind: diagnose.KindHostBusy, Severity: diagnose.Critical,
		Parts:   diagnose.Words("The generator's host was short of CPU from 0:00: lag p99 up to 142ms" + diagnose.NotTheTargets),
		Figures: []diagnose.Figure{{Source: diagnose.HostCPU}}}
	sat := diagnose.Finding{Kind: diagnose.KindSaturation, Severity: diagnose.Warning, Parts: diagnose.Words("Saturation: throughput stayed below the offered load")}
	own := "its mean latency 612ms less twice the lag p99 (97.6ms) is 417ms, past the latency limit of 100ms"
	busyFail := capacity.Record{StepResult: capacity.StepResult{Rate: 45}, Busy: "scheduling lag p99 97.6ms > 25.0ms", Judged: true, Stands: own}
	errs := "it answered 53 of the 4,200 requests with errors no late arrival of the generator explains"
	errFail := capacity.Record{StepResult: capacity.StepResult{Rate: 420}, Busy: "the step's diagnosis: waited", Judged: true, Stands: errs}
	cleanFail := capacity.Record{StepResult: capacity.StepResult{Rate: 45}, Judged: true}
	pass := capacity.Record{StepResult: capacity.StepResult{Rate: 30, Passed: true}, Judged: true}
	tests := []struct {
		name     string
		steps    []capacity.Record
		findings []diagnose.Finding
		want     []string // in this order
		never    []string
	}{
		{"judged the target's on a busy host", []capacity.Record{pass, busyFail}, []diagnose.Finding{host, sat},
			[]string{"TARGET: its mean latency 612ms", "WARNING: Saturation", "NOTE: The generator's host was short of CPU"},
			[]string{"not the target's", "CRITICAL"}},
		{"judged on the target's own errors on a busy host", []capacity.Record{pass, errFail}, []diagnose.Finding{host},
			[]string{"TARGET: it answered 53 of the 4,200 requests", "NOTE: The generator's host was short of CPU"},
			[]string{"not the target's", "CRITICAL"}},
		{"a clean failure keeps its findings as they are", []capacity.Record{pass, cleanFail}, []diagnose.Finding{sat},
			[]string{"WARNING: Saturation"}, []string{"TARGET", "NOTE"}},
		{"nothing failed: nothing to explain", []capacity.Record{pass}, nil, nil, []string{"why"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			writeWhy(&b, capacity.Result{Steps: tc.steps}, tc.findings)
			out, at := b.String(), 0
			for _, w := range tc.want {
				i := strings.Index(out[at:], w)
				if i < 0 {
					t.Fatalf("no %q after byte %d of:\n%s", w, at, out)
				}
				at += i + len(w)
			}
			for _, bad := range tc.never {
				if strings.Contains(out, bad) {
					t.Errorf("says %q:\n%s", bad, out)
				}
			}
		})
	}
}
