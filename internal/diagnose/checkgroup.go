package diagnose

import (
	"cmp"
	"slices"

	"github.com/loadlens/loadlens/internal/units"
)

// failedRequestChecks words one finding for the checks (two or more) that
// failed only on failed requests: they share that cause, which the errors
// finding states, so each is a line of evidence, not a finding of its own
// (five refused endpoints gave five near-identical INFO findings).
func (c *context) failedRequestChecks(fs []failedCheck, first, last int) Finding {
	slices.SortStableFunc(fs, func(a, b failedCheck) int { return cmp.Compare(a.onsetSec, b.onsetSec) })
	u, lastSec := c.checkUnit(fs[0].ck), fs[0].lastSec
	for _, f := range fs[1:] {
		if c.checkUnit(f.ck) != u { // checks of several protocols: the run's unit
			u = c.counts()
		}
		lastSec = max(lastSec, f.lastSec)
	}
	b := newBuilder(KindCheckFailed, Info)
	for i := range fs { // the first figure is the first failing check's failures: the finding's onset
		c.failedRequestCheck(b, &fs[i], first, last)
	}
	title := []any{"Checks failed because the " + u.Many + " failed: "}
	title = append(title, checkNames(fs)...)
	title = append(title, " failed from ", b.second(fs[0].onsetSec, StatOnset, "the first second a check failed"),
		" to ", b.second(lastSec, StatSecond, "the last second a check failed"),
		", in no second more often than their "+u.Many+" failed")
	b.title(title...)
	b.f.Remedies = failedRequestRemedies("the checks", u)
	return b.done(fs[0].onsetSec, lastSec)
}

// failedRequestCheck adds a line of evidence for one check that failed on
// failed requests: how often it failed and ran over the run first to
// last, and how many of its endpoint's requests failed while it failed.
func (c *context) failedRequestCheck(b *builder, f *failedCheck, first, last int) {
	u := c.checkUnit(f.ck)
	nf := b.add(c.fig(f.fails, StatSum, first, last, UnitCount, "times the check failed"))
	nt := b.add(c.fig(f.total, StatSum, first, last, UnitCount, "times the check ran"))
	rf := b.add(c.fig(f.reqFailed, StatSum, f.onsetSec, f.lastSec, UnitCount, "failed "+u.Many+" of the check's endpoint"))
	ep := name(c.endpointName(int(f.ck.Endpoint)))
	open, shut := quotes(f.ck.Name)
	b.evidence(nf, open, name(f.ck.Name), shut+" failed ", nf, " of ", nt, b.noun(nt, " time on ", " times on "), ep,
		" (scenario ", name(c.scenarioName(f.ck.Scenario)), "): ", rf, b.noun(rf, " "+u.One, " "+u.Many), " of ", ep, " failed from ",
		b.second(f.onsetSec, StatSecond, "the first second the check failed"), " to ",
		b.second(f.lastSec, StatSecond, "the last second the check failed"))
}

// checkNames names the checks for a title, each name once: up to three,
// then "and others" (the evidence names each).
func checkNames(fs []failedCheck) []any {
	var names []string
	for _, f := range fs {
		if !slices.Contains(names, f.ck.Name) {
			names = append(names, f.ck.Name)
		}
	}
	var out []any
	for i, n := range names {
		switch {
		case i == 3:
			return append(out, " and others")
		case i > 0 && i == len(names)-1:
			out = append(out, " and ")
		case i > 0:
			out = append(out, ", ")
		}
		open, shut := quotes(n)
		out = append(out, open, name(n), shut)
	}
	return out
}

// failedRequestRemedies is what to do about checks (who: "the check",
// "the checks") that failed on failed requests of unit u.
func failedRequestRemedies(who string, u units.Unit) []string {
	return []string{
		who + " failed on " + u.Many + " that got no good answer (a timeout, an error): see the errors finding, and fix what failed the " + u.Many,
		"re-run after that fix: a check that still fails on successful responses is a fault of its own",
	}
}
