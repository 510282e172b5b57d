package diagnose

import "strings"

// checkFailed finds the checks that failed. A check states what must hold
// of the answers (never more coupons than the event has); when it fails,
// that is the fault, and the errors or slowness around it are symptoms.
// A status check only restates a response's status, which the errors
// finding already counts, so it is a warning.
func checkFailed(c *context) []Finding {
	if c.run == nil {
		return nil
	}
	first, last := c.all[0].sec, c.all[len(c.all)-1].sec
	var fs []Finding
	for i, ck := range c.run.Layout.Checks {
		onsetSec, lastSec := -1, -1
		for _, s := range c.run.Series {
			if i < len(s.Checks) && s.Checks[i].Fails > 0 {
				if onsetSec < 0 {
					onsetSec = s.Sec
				}
				lastSec = s.Sec
			}
		}
		if onsetSec < 0 {
			continue
		}
		scenario := c.scenarioName(ck.Scenario)
		sev := Critical
		if statusCheck(ck.Name) {
			sev = Warning
		}
		b := newBuilder(KindCheckFailed, sev)
		fails, total := c.client(SrcCheckFails, "check", ck.Name, "scenario", scenario), c.client(SrcCheckTotal, "check", ck.Name, "scenario", scenario)
		nf := b.add(c.fig(fails, StatSum, first, last, UnitCount, "times the check failed"))
		nt := b.add(c.fig(total, StatSum, first, last, UnitCount, "times the check ran"))
		share := b.derive(StatRatio, UnitFraction, "share of the check's runs that failed", nf, nt)
		onset := b.second(onsetSec, StatOnset, "the first second the check failed")
		where := name(ck.Name)
		var endpoint []any
		if int(ck.Endpoint) >= 0 && int(ck.Endpoint) < len(c.run.Layout.Endpoints) {
			endpoint = []any{" on ", name(c.endpointName(int(ck.Endpoint)))}
		}
		title := []any{"Check failed: \"", where, "\" failed ", nf, " of ", nt, b.noun(nt, " time from ", " times from "), onset}
		title = append(title, endpoint...)
		title = append(title, " (scenario ", name(scenario), ")")
		b.title(title...)
		ff := b.add(c.fig(fails, StatValue, onsetSec, onsetSec, UnitCount, "failures in the first failing second"))
		ft := b.add(c.fig(total, StatValue, onsetSec, onsetSec, UnitCount, "runs in the first failing second"))
		b.evidence(ff, "first failing second: ", ff, " of ", ft, " failed")
		b.evidence(share, share, " of the check's runs failed over the run; the last failure at ",
			b.second(lastSec, StatSecond, "the last second the check failed"))
		if sev == Critical {
			b.f.Remedies = []string{
				"the check states what must hold of the answers: treat its failure as the fault, and the errors and slowness around it as symptoms",
				"reproduce it with the scenario's concurrency: failures that appear only under load point to a race (read-then-write without a lock or an atomic update)",
				"make the update atomic (a conditional UPDATE, an atomic decrement, a unique constraint) and re-run the same test",
			}
		} else {
			b.f.Remedies = []string{"see the errors finding: the responses had another status than the check expects"}
		}
		fs = append(fs, b.done(onsetSec, lastSec))
	}
	return fs
}

// statusCheck reports whether a check only tests the status (as the test
// format names those: "status is 200", "status in [200, 201]").
func statusCheck(name string) bool {
	return strings.HasPrefix(name, "status is ") || strings.HasPrefix(name, "status in ")
}
