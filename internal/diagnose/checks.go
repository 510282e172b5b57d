package diagnose

import "strings"

// checkFailed finds the checks that failed. A check states what must hold
// of the answers (never more coupons than the event has); when it fails,
// that is the fault, and the errors or slowness around it are symptoms.
// A status check only restates a response's status, which the errors
// finding already counts, so it is a warning; a check that failed only on
// failed requests (timeouts, 5xx) is their symptom, info.
func checkFailed(c *context) []Finding {
	if c.run == nil {
		return nil
	}
	first, last := c.all[0].sec, c.all[len(c.all)-1].sec
	var fs []Finding
	seen := map[string]bool{}
	for i, ck := range c.run.Layout.Checks {
		fails, total := c.client(SrcCheckFails, c.checkSource(i)...), c.client(SrcCheckTotal, c.checkSource(i)...)
		if seen[fails] { // one finding for checks the figures cannot tell apart
			continue
		}
		seen[fails] = true
		onsetSec, lastSec := -1, -1
		for _, p := range c.values(fails) {
			if p.Value > 0 {
				if onsetSec < 0 {
					onsetSec = p.Sec
				}
				lastSec = p.Sec
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
		reqFailed := c.requestsFailed(ck.Endpoint, fails)
		if reqFailed != "" {
			sev = Info
		}
		b := newBuilder(KindCheckFailed, sev)
		nf := b.add(c.fig(fails, StatSum, first, last, UnitCount, "times the check failed"))
		nt := b.add(c.fig(total, StatSum, first, last, UnitCount, "times the check ran"))
		share := b.derive(StatRatio, UnitFraction, "share of the check's runs that failed", nf, nt)
		onset := b.second(onsetSec, StatOnset, "the first second the check failed")
		where := name(ck.Name)
		var endpoint []any
		if int(ck.Endpoint) >= 0 && int(ck.Endpoint) < len(c.run.Layout.Endpoints) {
			endpoint = []any{" on ", name(c.endpointName(int(ck.Endpoint)))}
		}
		head := "Check failed: \""
		if reqFailed != "" {
			head = "Check failed because the request failed: \""
		}
		title := []any{head, where, "\" failed ", nf, " of ", nt, b.noun(nt, " time from ", " times from "), onset}
		title = append(title, endpoint...)
		title = append(title, " (scenario ", name(scenario), ")")
		b.title(title...)
		ff := b.add(c.fig(fails, StatValue, onsetSec, onsetSec, UnitCount, "failures in the first failing second"))
		ft := b.add(c.fig(total, StatValue, onsetSec, onsetSec, UnitCount, "runs in the first failing second"))
		b.evidence(ff, "first failing second: ", ff, " of ", ft, " failed")
		b.evidence(share, share, " of the check's runs failed over the run; the last failure at ",
			b.second(lastSec, StatSecond, "the last second the check failed"))
		if reqFailed != "" {
			rf := b.add(c.fig(reqFailed, StatSum, onsetSec, lastSec, UnitCount, "failed requests of the check's endpoint"))
			b.evidence(rf, rf, b.noun(rf, " request", " requests"), " of ", endpoint[1], " failed from ",
				b.second(onsetSec, StatSecond, "the first second the check failed"), " to ",
				b.second(lastSec, StatSecond, "the last second the check failed"),
				": in each second at least as many as the check failed, so no failure is known to be on a good response")
			b.f.Remedies = []string{
				"the check failed on requests that got no good answer (a timeout, an error): see the errors finding, and fix what failed the requests",
				"re-run after that fix: a check that still fails on successful responses is a fault of its own",
			}
		} else if sev == Critical {
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

// requestsFailed returns the failed-requests source of a check's endpoint
// when, in every second the check failed, at least as many of the
// endpoint's requests failed: then each failure may be a request that got
// no answer to check (a timeout, a 5xx), a symptom of the request failing,
// not a broken invariant. "" otherwise, or for a check of no one endpoint.
func (c *context) requestsFailed(ep int32, fails string) string {
	if ep < 0 || int(ep) >= len(c.run.Layout.Endpoints) {
		return ""
	}
	failed := c.client(SrcFailed, c.endpointSource(int(ep))...)
	byS := map[int]float64{}
	for _, p := range c.values(failed) {
		byS[p.Sec] = p.Value
	}
	for _, p := range c.values(fails) {
		if p.Value > byS[p.Sec] {
			return ""
		}
	}
	return failed
}
