package diagnose

import (
	"slices"
	"strings"
)

// causeSlack is how many seconds a cause's finding may end before the
// errors begin and still be theirs: a scraped series ends at its last
// scrape, up to an interval (5 s by default) before the load's effect does.
const causeSlack = 5

// errorCause says what a finding established that makes a target fail
// requests, as the errors finding names it; "" for a finding of no cause.
func errorCause(f Finding) string {
	switch f.Kind {
	case KindCPUSaturation:
		return f.subject() + " was short of CPU"
	case KindCPUThrottled:
		return f.subject() + " was held back by its CPU limit"
	case KindTargetHostBusy:
		return f.subject() + " was short of CPU, which other processes took"
	case KindPoolExhaustion:
		return "the DB pool was exhausted"
	case KindThreadPoolFull:
		return f.threadsOf() + "'s request threads were all busy while its CPU idled"
	}
	return ""
}

// errorsFollowCause points each errors finding at the causes the other
// findings established over its seconds (a CPU finding, a pool finding),
// in their order, with each cause's first remedy (its own finding lists
// the rest): the load-level guesses (a pool, a slow query) beside a CPU
// finding sent a CPU-starved target's users to its pool. A
// cause is a finding of warning or more whose seconds meet the errors', a
// process's first CPU finding only (throttled and saturated are one cause); an
// errors finding without one keeps its own remedies, and a line on the
// failures' kind (mostFailures) stays first. fs is sorted, most severe first.
func errorsFollowCause(fs []Finding) {
	for i := range fs {
		e := &fs[i]
		if e.Kind != KindErrorsAtLoad {
			continue
		}
		var lead, rest []string
		short := map[string]bool{} // the subjects already named short of CPU: one CPU cause each
		for _, f := range fs {
			if f.Kind == KindThreadPoolFull && causeOf(f, *e) {
				short[f.threadsOf()] = true // its threads waited with CPU to spare: no CPU cause
			}
		}
		for _, f := range fs {
			what := errorCause(f)
			if what == "" || !causeOf(f, *e) {
				continue
			}
			if f.Kind != KindPoolExhaustion && f.Kind != KindThreadPoolFull {
				if short[f.subject()] {
					continue
				}
				short[f.subject()] = true
			}
			lead = append(lead, "the errors came while "+what+" (the "+f.Kind+" finding): apply that finding's remedies, then re-run")
			if len(f.Remedies) > 0 && !slices.Contains(rest, f.Remedies[0]) {
				rest = append(rest, f.Remedies[0])
			}
		}
		if lead == nil {
			continue
		}
		var kind []string
		if len(e.Remedies) > 0 && strings.HasPrefix(e.Remedies[0], mostFailuresLead) {
			kind = e.Remedies[:1]
		}
		e.Remedies = slices.Concat(kind, lead, rest)
	}
}

// causeOf reports whether f may explain the errors of e: a warning or more
// whose seconds meet e's.
func causeOf(f, e Finding) bool {
	return f.Severity >= Warning && f.From <= e.To && f.To+causeSlack >= e.From
}

// threadsOf is whose request threads a thread-pool finding is about, as
// its title's first name says: "App".
func (f Finding) threadsOf() string {
	for _, p := range f.Parts {
		if p.Name != "" {
			return p.Name
		}
	}
	return "the target"
}

// subject is who a CPU finding is about, as its title starts: "App" in
// "App CPU saturated: …"; "the target" when the title says no name.
func (f Finding) subject() string {
	var head string
	for _, p := range f.Parts {
		if p.Figure >= 0 {
			break
		}
		head += p.Text + p.Name
	}
	if i := strings.Index(head, " CPU "); i > 0 {
		return head[:i]
	}
	return "the target"
}
