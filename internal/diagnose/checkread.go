package diagnose

import (
	"slices"
	"strconv"
)

// apart is why a check's failures are no broken invariant: every one was
// on a body it could not read (not JSON, no value at its path), or on an
// answer of a status it never passed on. The outside trial's "$.price >=
// 10" failed on every expected 404 ("nope") and passed on the 200s, under
// 15 VUs: diagnosis called it a race. A race reads a value, on answers of
// the status it passes on, and finds it wrong.
type apart struct {
	statuses         []int   // the statuses it failed on and never passed on, when those hold every failure; nil otherwise
	notJSON, noValue float64 // its failures on bodies not JSON, and on JSON with no value at its path
	unread           bool    // every failure was on a body it could not read
}

// answersApart says how check f's failures lie apart from its passes, and
// whether they do. A run.db of an earlier build kept neither.
func (c *context) answersApart(f *failedCheck) (apart, bool) {
	first, last := c.all[0].sec, c.all[len(c.all)-1].sec
	sum := func(src string) float64 {
		return c.fig(c.client(src, c.checkSource(f.i)...), StatSum, first, last, UnitCount, "").Value
	}
	a := apart{notJSON: sum(SrcCheckNotJSON), noValue: sum(SrcCheckNoValue)}
	fails := sum(SrcCheckFails)
	a.unread = fails > 0 && a.notJSON+a.noValue >= fails
	a.statuses = c.failedStatuses(f)
	return a, a.unread || a.statuses != nil
}

// failedStatuses returns the statuses check f failed on, in order, when
// every failure was on one of them and no answer of theirs passed it, and
// it passed on another; nil otherwise, or when its statuses were not all kept.
func (c *context) failedStatuses(f *failedCheck) []int {
	var passes, fails, keptP, keptF int64
	byStatus := map[int][2]int64{}
	for _, k := range c.checkIndexes(f.ck.Name, c.checkEndpoint(f.ck.Endpoint), c.scenarioName(f.ck.Scenario)) {
		ck := &c.run.Checks[k]
		passes, fails = passes+ck.Passes, fails+ck.Fails
		for _, st := range ck.Statuses {
			n := byStatus[st.Status]
			byStatus[st.Status] = [2]int64{n[0] + st.Passes, n[1] + st.Fails}
			keptP, keptF = keptP+st.Passes, keptF+st.Fails
		}
	}
	if keptP != passes || keptF != fails || passes == 0 || fails == 0 {
		return nil
	}
	var out []int
	for st, n := range byStatus {
		switch {
		case n[0] > 0 && n[1] > 0:
			return nil // it passed and failed on answers of one status
		case n[1] > 0:
			out = append(out, st)
		}
	}
	slices.Sort(out)
	return out
}

// title is what the finding's title adds: on which answers it failed.
func (a apart) title() []any {
	out := []any{", every time on "}
	if a.statuses != nil {
		out = append(out, "a ")
		out = append(out, a.statusNames()...)
		out = append(out, " answer")
		if !a.unread {
			return append(out, ", a status it never passed on")
		}
		out = append(out, " whose body ")
	} else {
		out = append(out, "a body that ")
	}
	switch {
	case a.noValue == 0:
		return append(out, "is not JSON")
	case a.notJSON == 0:
		return append(out, "has no value at its path")
	}
	return append(out, "it could not read (not JSON, or no value at its path)")
}

// statusNames names the statuses as "404" or "404 or 410".
func (a apart) statusNames() []any {
	var out []any
	for i, st := range a.statuses {
		if i > 0 {
			out = append(out, " or ")
		}
		out = append(out, name(strconv.Itoa(st)))
	}
	return out
}

// apartRemedies adds the evidence and remedies of a check whose failures
// lie apart from its passes: scope the check, not a race to fix.
func (c *context) apartRemedies(b *builder, f *failedCheck, a apart) {
	first, last := c.all[0].sec, c.all[len(c.all)-1].sec
	src := func(name string, kv ...string) string { return c.client(name, append(c.checkSource(f.i), kv...)...) }
	for _, st := range a.statuses {
		s := strconv.Itoa(st)
		ff := b.add(c.fig(src(SrcCheckFails, "status", s), StatSum, first, last, UnitCount, "times the check failed on answers of status "+s))
		ft := b.add(c.fig(src(SrcCheckTotal, "status", s), StatSum, first, last, UnitCount, "times the check ran on answers of status "+s))
		b.evidence(ff, "it failed on every answer of status ", name(s), " (", ff, " of ", ft,
			") and passed on every answer of the others: the answers differ, not the VUs' timing")
	}
	if a.notJSON > 0 {
		nj := b.add(c.fig(src(SrcCheckNotJSON), StatSum, first, last, UnitCount, "times the check failed on a body not JSON"))
		b.evidence(nj, nj, b.noun(nj, " failure was on a body that is", " failures were on bodies that are"),
			" not JSON the decoder reads (the run's notes quote one): the check could not read its value")
	}
	if a.noValue > 0 {
		nv := b.add(c.fig(src(SrcCheckNoValue), StatSum, first, last, UnitCount, "times the check failed on a JSON body with no value at its path"))
		b.evidence(nv, nv, b.noun(nv, " failure was on a JSON body", " failures were on JSON bodies"), " with no value at its path: the check could not read its value")
	}
	on := "answers that do not hold its value"
	if a.statuses != nil {
		on = "answers of status " + joinStatuses(a.statuses)
	}
	b.f.Remedies = []string{
		"the check ran on " + on + " and failed on each: that is what these answers are, under any load, not a race between VUs",
		"scope the check to the answers it is about: a step (and check) per kind of answer, so that it judges only those that carry its value; " +
			"or, if those answers are faults, leave their status out of expect_status so that they count as failed requests",
		"re-run: a check that still fails on answers it can read, of the status it passes on, is a fault of its own",
	}
}

// joinStatuses writes statuses as "404" or "404 or 410".
func joinStatuses(sts []int) string {
	s := ""
	for i, st := range sts {
		if i > 0 {
			s += " or "
		}
		s += strconv.Itoa(st)
	}
	return s
}
