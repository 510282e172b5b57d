package diagnose

import (
	"strings"

	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/units"
)

// checkFailed finds the checks that failed. A check states what must hold
// of the answers (never more coupons than the event has); when it fails,
// that is the fault, and the errors or slowness around it are symptoms.
// A status check only restates a response's status, which the errors
// finding already counts, so it is a warning; a check that failed only on
// failed requests (timeouts, 5xx) is their symptom, info, and several such
// checks share that one cause, so they are one finding.
func checkFailed(c *context) []Finding {
	if c.run == nil {
		return nil
	}
	first, last := c.all[0].sec, c.all[len(c.all)-1].sec
	var fs []Finding
	var onFailed []failedCheck // the checks that failed only on failed requests
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
		f := failedCheck{i: i, ck: ck, fails: fails, total: total, onsetSec: onsetSec, lastSec: lastSec}
		if f.reqFailed = c.requestsFailed(ck.Endpoint, fails); f.reqFailed != "" {
			onFailed = append(onFailed, f)
			continue
		}
		fs = append(fs, c.checkFinding(&f, first, last))
	}
	if len(onFailed) == 1 {
		return append(fs, c.checkFinding(&onFailed[0], first, last))
	}
	if len(onFailed) > 1 {
		fs = append(fs, c.failedRequestChecks(onFailed, first, last))
	}
	return fs
}

// failedCheck is a check that failed: its index and layout, its failure
// and run series, its first and last failing seconds, and what the finding
// found of its cause: the request failed (reqFailed, a series), or bodies
// were cut (cut, a figure).
type failedCheck struct {
	i                 int
	ck                sample.CheckInfo
	fails, total      string
	onsetSec, lastSec int
	reqFailed         string
	cut               ref
	endpoint          []any
	apart             *apart // its failures lie apart from its passes (see answersApart); nil when not
}

// checkFinding words a failed check's finding over the run's seconds
// first to last.
func (c *context) checkFinding(f *failedCheck, first, last int) Finding {
	ck := f.ck
	sev := Critical
	if statusCheck(ck.Name) {
		sev = Warning
	}
	if f.reqFailed != "" {
		sev = Info
	}
	b := newBuilder(KindCheckFailed, sev)
	nf := b.add(c.fig(f.fails, StatSum, first, last, UnitCount, "times the check failed"))
	nt := b.add(c.fig(f.total, StatSum, first, last, UnitCount, "times the check ran"))
	share := b.derive(StatRatio, UnitRate, "share of the check's runs that failed", nf, nt)
	onset := b.second(f.onsetSec, StatOnset, "the first second the check failed")
	if int(ck.Endpoint) >= 0 && int(ck.Endpoint) < len(c.run.Layout.Endpoints) {
		f.endpoint = []any{" on ", name(c.endpointName(int(ck.Endpoint)))}
	}
	open, shut := quotes(ck.Name)
	head := "Check failed: "
	if f.reqFailed != "" {
		head = "Check failed because the " + c.checkUnit(ck).One + " failed: "
	}
	title := []any{head + open, name(ck.Name), shut + " failed ", nf, " of ", nt, b.noun(nt, " time from ", " times from "), onset}
	title = append(title, f.endpoint...)
	title = append(title, " (scenario ", name(c.scenarioName(ck.Scenario)), ")")
	f.cut = ref(-1)
	if f.reqFailed == "" {
		f.cut = c.truncatedFor(b, f.i, f.onsetSec, f.lastSec)
	}
	if f.cut >= 0 {
		sev = Warning // the test's own cap, not the target, is the likely fault
		b.f.Severity = sev
		title = append(title, ", likely because ", f.cut, b.noun(f.cut, " response body was", " response bodies were"),
			" longer than max_body: the check saw only the start")
	}
	if a, ok := c.answersApart(f); ok && sev == Critical {
		sev, f.apart = Warning, &a // the answers' kind, not the target's fault under load
		b.f.Severity = sev
		title = append(title, a.title()...)
	}
	b.title(title...)
	ff := b.add(c.fig(f.fails, StatValue, f.onsetSec, f.onsetSec, UnitCount, "failures in the first failing second"))
	ft := b.add(c.fig(f.total, StatValue, f.onsetSec, f.onsetSec, UnitCount, "runs in the first failing second"))
	b.evidence(ff, "first failing second: ", ff, " of ", ft, " failed")
	b.evidence(share, share, " of the check's runs failed over the run; the last failure at ",
		b.second(f.lastSec, StatSecond, "the last second the check failed"))
	c.checkRemedies(b, f, sev)
	return b.done(f.onsetSec, f.lastSec)
}

// quotes are the marks around a check's name: other than those of a name
// that holds them (body contains "END").
func quotes(check string) (open, shut string) {
	if strings.Contains(check, "\"") {
		return "‘", "’"
	}
	return "\"", "\""
}

// checkUnit is what the check's endpoint counts (units.ForProtocol): a
// request, a gRPC call or a session; the run's unit for a check of no endpoint.
func (c *context) checkUnit(ck sample.CheckInfo) units.Unit {
	if ep := int(ck.Endpoint); ep >= 0 && ep < len(c.run.Layout.Endpoints) {
		return units.ForProtocol(c.run.Layout.Endpoints[ep].Protocol)
	}
	return c.counts()
}

// checkRemedies adds what to do about a failed check, by its likely
// cause: failed requests, bodies cut at max_body, or the check itself.
func (c *context) checkRemedies(b *builder, f *failedCheck, sev Severity) {
	switch {
	case f.reqFailed != "":
		u := c.checkUnit(f.ck)
		rf := b.add(c.fig(f.reqFailed, StatSum, f.onsetSec, f.lastSec, UnitCount, "failed "+u.Many+" of the check's endpoint"))
		b.evidence(rf, rf, b.noun(rf, " "+u.One, " "+u.Many), " of ", f.endpoint[1], " failed from ",
			b.second(f.onsetSec, StatSecond, "the first second the check failed"), " to ",
			b.second(f.lastSec, StatSecond, "the last second the check failed"),
			": in each second at least as many as the check failed, so no failure is known to be on a good response")
		b.f.Remedies = failedRequestRemedies("the check", u)
	case f.apart != nil:
		c.apartRemedies(b, f, *f.apart)
	case f.cut >= 0:
		b.evidence(f.cut, f.cut, b.noun(f.cut, " response body was", " response bodies were"),
			" longer than max_body while the check failed: checks read only their first bytes")
		b.f.Remedies = []string{
			"raise max_body (the step's or the test's max_body:, or --max-body) above the size of the responses and re-run",
			"if the check still fails on whole bodies, treat it as the fault: it states what must hold of the answers",
		}
	case sev == Critical:
		c.invariantRemedies(b, f)
	default:
		b.f.Remedies = []string{"see the errors finding: the responses had another status than the check expects"}
	}
}

// invariantRemedies adds what to do about a check that failed on answers
// that came. A race only when the evidence says one: a check of what must
// hold (not an extraction) that passed and failed while more than one VU
// ran at once. A check that failed on every answer, or with one VU at a
// time, is the answers' (or the check's) own fault, and an extraction that
// missed in some answers is first a difference between the answers (a
// login refused to some users); a body the decoder could not read has a
// note of the run saying why.
func (c *context) invariantRemedies(b *builder, f *failedCheck) {
	first, last := c.all[0].sec, c.all[len(c.all)-1].sec
	fails := c.fig(f.fails, StatSum, first, last, UnitCount, "").Value
	total := c.fig(f.total, StatSum, first, last, UnitCount, "").Value
	extraction := strings.HasPrefix(f.ck.Name, "extract ")
	some := fails < total
	if some {
		vus := b.add(c.fig(c.client(SrcVUs), StatMax, f.onsetSec, f.lastSec, UnitCount, "the most VUs at once while the check failed"))
		switch {
		case b.fig(vus).Value > 1 && !extraction:
			b.evidence(vus, "it passed on some answers and failed on others while up to ", vus, " VUs ran at once: what a race looks like")
			b.f.Remedies = []string{
				"the check states what must hold of the answers: treat its failure as the fault, and the errors and slowness around it as symptoms",
				"reproduce it with the scenario's concurrency, then with 1 VU: failures that appear only under load point to a race (read-then-write without a lock or an atomic update)",
				"make the update atomic (a conditional UPDATE, an atomic decrement, a unique constraint) and re-run the same test",
			}
			return
		case b.fig(vus).Value > 1:
			b.evidence(vus, "it found its value in some answers and not in others, with up to ", vus, " VUs at once")
		default:
			b.evidence(vus, "it passed on some answers and failed on others with ", vus, " VU at a time: no race between VUs")
		}
	}
	var rem []string
	switch {
	case extraction && some:
		rem = []string{"the extraction found nothing in some answers: compare one it missed with one it read (a login refused to some users, a field sent only sometimes)",
			"re-run with 1 VU: a miss that remains is the answers', not a race between VUs"}
	case extraction:
		rem = []string{"the extraction found nothing in any answer: compare its path with one answer (is the field there, under that name, in a JSON body?)"}
	case some:
		rem = []string{"the check failed on some answers with one VU at a time: compare the answers it failed on with those it passed on"}
	default:
		rem = []string{"the check failed on every answer it ran on: the answers never hold what it states, whatever the load",
			"compare one answer with the check (its path, operator and value): a check that never passes is as often wrong as the service"}
	}
	b.f.Remedies = append(rem, "if the run's notes say a body was not JSON the decoder reads (nested too deep, not JSON), the answer is the fault, not the check")
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

// truncatedFor adds the count of bodies cut at max_body while check i
// failed, when the check reads the body and its endpoint had any cut: the
// likely reason a body check failed. It returns -1 otherwise.
func (c *context) truncatedFor(b *builder, i, from, to int) ref {
	ck := c.run.Layout.Checks[i]
	ep := int(ck.Endpoint)
	if statusCheck(ck.Name) || strings.HasPrefix(ck.Name, "header ") || ep < 0 || ep >= len(c.run.Endpoints) || c.run.Endpoints[ep].Truncated == 0 {
		return -1
	}
	f := c.fig(c.client(SrcTruncated), StatSum, from, to, UnitCount, "response bodies longer than max_body while the check failed")
	if !(f.Value > 0) {
		return -1
	}
	return b.add(f)
}
