package diagnose

// errGap seconds in a row under errShare failed end a run of errors, as
// errSeconds failing in a row start one: on a rising load a limit reached
// at one level is reached at every higher one, so errors that stopped for
// as long were an event of their own second (a stall of the generator that
// released its arrivals at once, a pause), not the level of the load.
const errGap = errSeconds

// errIsolatedShown caps the isolated seconds the evidence names.
const errIsolatedShown = 4

// cleanSecond reports whether under errShare of a second's requests failed.
func cleanSecond(s *clientSecond) bool { return keptFailures(s) < errShare*s.x }

// persistsTo reports whether the errors persisted from busy[j] to
// busy[first]: no errGap clean seconds in a row between them.
func persistsTo(view []clientSecond, busy []int, j, first int) bool {
	run := 0
	for _, i := range busy[j+1 : first] {
		if !cleanSecond(&view[i]) {
			run = 0
			continue
		}
		if run++; run >= errGap {
			return false
		}
	}
	return true
}

// bunchedSecond reports whether a second's arrivals came late enough to
// come together: its lag p99 at least its median latency (arrivals later
// than a request's service find the ones due before them still in flight)
// and the gap between arrivals, capacity's test of a late arrival
// (explaining in internal/capacity) on the p99 the second keeps.
func bunchedSecond(s *clientSecond) bool {
	return s.load > 0 && s.lag > 0 && s.lag >= s.p50 && s.lag >= 1/s.load
}

// isolatedEvidence names the failing seconds before the onset that the
// errors did not persist from (errorsSince passed over them), with their
// load and failures, and the lag of those whose arrivals came bunched.
func (e *errorStretch) isolatedEvidence() {
	c, b := e.c, e.b
	var secs []int
	for i := 0; i < e.firstI; i++ {
		if e.view[i].x > 0 && failingSecond(&e.view[i]) {
			secs = append(secs, i)
		}
	}
	if len(secs) == 0 || e.load == nil {
		return
	}
	parts := []any{"isolated failing seconds before ", e.onset, " (the errors did not persist from them): "}
	if len(secs) > errIsolatedShown {
		parts[2] = " (the errors did not persist from them), the earliest: "
	}
	main := ref(-1)
	for n, i := range secs[:min(len(secs), errIsolatedShown)] {
		s := &e.view[i]
		failed := b.add(c.fig(e.failedS, StatValue, s.sec, s.sec, UnitCount, c.counts().Many+" failed in an isolated failing second"))
		if main < 0 {
			main = failed
		}
		if n > 0 {
			parts = append(parts, ", ")
		}
		parts = append(parts, b.second(s.sec, StatSecond, "an isolated failing second"), " at ")
		parts = append(append(parts, e.isolatedLoad(s)...), " (", failed, " failed")
		if c.open && bunchedSecond(s) {
			lag := b.add(c.fig(c.client(SrcLag), StatValue, s.sec, s.sec, UnitDuration, "the generator's lag p99 in an isolated failing second"))
			parts = append(parts, "; its arrivals came late, bunched: scheduler lag ", name("p99"), " ", lag)
		}
		parts = append(parts, ")")
	}
	b.evidence(main, parts...)
}

// isolatedLoad is an isolated second's load: what the schedule offered in
// it (open model), else its throughput.
func (e *errorStretch) isolatedLoad(s *clientSecond) []any {
	c, b := e.c, e.b
	if c.open {
		return []any{b.add(c.fig(c.client(SrcOffered), StatValue, s.sec, s.sec, UnitReqPerSec, "offered in an isolated failing second")), " offered"}
	}
	return []any{b.add(c.fig(e.reqsS, StatValue, s.sec, s.sec, UnitReqPerSec, "throughput in an isolated failing second"))}
}
