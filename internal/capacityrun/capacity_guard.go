package capacityrun

import (
	"strings"

	"github.com/loadlens/loadlens/internal/diagnose"
	"github.com/loadlens/loadlens/internal/report"
)

// busySignals are the series and client metrics a generator finding reads
// when it blames loadlens's CPU or its host (docs/findings.md, "The
// generator or its host"): its CPU, its threads' wait for a CPU, its
// goroutines' scheduling latency, the scheduler's lag, the host's busy and
// stolen CPU. A generator-bound finding made only of dropped iterations is
// the VU ceiling's, which the search judges apart (Record.Saturation).
var busySignals = []string{
	diagnose.GeneratorCPU, diagnose.GeneratorCPUWait, diagnose.GeneratorStall, diagnose.SrcLag,
	diagnose.HostCPU, diagnose.HostSteal,
}

// distrusted returns the title of the first finding of a step's diagnosis
// that says its figures are the generator's or its host's, not the
// target's (notTheTargets); "" when none does. The search does not judge a failure on it.
// A finding that follows the target's own errors or slowdown does not say
// so (the 503s of a target past its capacity are no lag of the generator's),
// and a step retried on it would leave the boundary unset or past them.
func distrusted(findings []diagnose.Finding) string {
	for i := range findings {
		if distrusts(&findings[i]) {
			return notTheTargets(&findings[i])
		}
	}
	return ""
}

// distrusts reports whether a finding says a step's figures are the
// generator's or its host's, not the target's. A busy host whose lag stayed
// under a tenth of every latency figure is a warning that says they are
// the target's.
func distrusts(f *diagnose.Finding) bool {
	hostBusy := f.Kind == diagnose.KindHostBusy && f.Severity != diagnose.Warning
	return !f.FollowsTarget && (hostBusy || f.Kind == diagnose.KindGeneratorBound && readsBusySignal(f))
}

// notTheTargets is a distrusting finding's title without its last words,
// "the numbers are not the target's": the search weighs them itself
// (capacity's hostsDoing), and a step it judged is the target's.
func notTheTargets(f *diagnose.Finding) string {
	return strings.Replace(report.FindingTitle(f), diagnose.NotTheTargets, "", 1)
}

// readsBusySignal reports whether a finding's figures come from a signal of
// a busy generator or host, or from a VU pool held by loadlens's own CPU.
func readsBusySignal(f *diagnose.Finding) bool {
	for _, fig := range f.Figures {
		for _, src := range strings.Split(fig.Source, " / ") { // a share is "used / capacity"
			name, labels, _ := strings.Cut(src, "{")
			for _, s := range busySignals {
				if name == s {
					return true
				}
			}
			if name == diagnose.GeneratorPoolHeld && (strings.Contains(labels, `reason="generator_cpu"`) || strings.Contains(labels, `reason="generator_behind"`)) {
				return true
			}
		}
	}
	return false
}

// starved returns the title of the first critical target-host-busy
// finding of a step's diagnosis: the target's CPUs full, other processes
// holding them while it used little of what it may use, and the load felt
// it. Such a step measured the host, not the target's limit (trial A40:
// "FAIL, the target's" at 20/s while the app used 16.7 % of the host's
// CPUs, other processes 83.3 %); "" when none says so. A warning or a note
// of it (no effect on the load shown, or a full pool the queue's cause)
// leaves the step to be judged: a pool-bound target beside a busy build is
// measured all the same.
func starved(findings []diagnose.Finding) string {
	for i := range findings {
		if f := &findings[i]; f.Kind == diagnose.KindTargetHostBusy && f.Severity == diagnose.Critical {
			return report.FindingTitle(f)
		}
	}
	return ""
}
