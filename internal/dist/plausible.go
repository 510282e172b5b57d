package dist

import (
	"fmt"
	"time"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/units"
)

// perVUSecond is the most requests, and the most iterations, one VU can
// complete in a second. A VU's requests run one after another, and even
// one that fails at once takes two clock reads, a recorder lock and a
// histogram record besides its protocol's work; the cheapest measured take
// 25–40 µs of CPU (docs/generator.md), so a microsecond each is 25 times
// more than a real agent reaches, however fast its target.
const perVUSecond = 1_000_000

// maxBytesSecond is the most bytes an agent can send, or receive, in a
// second: 10 TB, 200 times a 400 Gb/s link and ten times the memory
// bandwidth of the largest hosts.
const maxBytesSecond = 10_000_000_000_000

// segmentVUs is the most VUs segment seg runs of load l at once, sized as
// the engine sizes them, and one more against any rounding.
func segmentVUs(l *plan.Load, seg plan.Segment) int64 {
	n := 0
	switch l.Model {
	case plan.ArrivalRate:
		n = max(seg.Share(l.MaxVUs), 1)
	case plan.VUs:
		peak := l.StartVUs
		for _, st := range l.Stages {
			peak = max(peak, int(st.Target))
		}
		n = seg.Share(peak)
	case plan.Iterations:
		n = seg.Share(l.VUCount)
	}
	return int64(n) + 1
}

// implausible says why second s, from the agent running segment seg of
// p, cannot be what it measured: an endpoint's duration histogram not
// holding its requests, its requests sent or ended outside the run so far
// (sendTimes), more requests or iterations than its share of the VUs could
// complete in a second (perVUSecond), or more bytes than a host can move
// in one (maxBytesSecond). nil when it can be.
func implausible(p *plan.Plan, seg plan.Segment, s *metrics.Snapshot) error {
	l := &p.Layout
	perScenario := make([]int64, len(s.Scenarios))
	for i := range s.Endpoints {
		e := &s.Endpoints[i]
		name := l.Endpoints[i].Name
		if n := e.Duration.Count(); n != e.Requests {
			return fmt.Errorf("endpoint %q: its duration histogram holds %s, the second %s", name, units.CountOf(n, "request", "requests"), units.CountOf(e.Requests, "request", "requests"))
		}
		if err := sendTimes(e, s.Second); err != nil {
			return fmt.Errorf("endpoint %q: %w", name, err)
		}
		if n := e.Waiting.Count(); n > e.Requests {
			return fmt.Errorf("endpoint %q: its waiting histogram holds %s, more than the second's %s", name, units.CountOf(n, "request", "requests"), units.CountOf(e.Requests, "request", "requests"))
		}
		sc := l.Endpoints[i].Scenario
		if e.Requests > vuSecond(p, sc, seg) {
			return fmt.Errorf("endpoint %q: %s", name, tooMany(e.Requests, "requests", p, sc, seg))
		}
		if int(sc) < len(perScenario) {
			perScenario[sc] = min(perScenario[sc]+e.Requests, 1<<62) // each is at most vuSecond, far below 2^62
		}
	}
	if err := bytesSecond(s); err != nil {
		return err
	}
	for i := range s.Scenarios {
		name := l.Scenarios[i].Name
		if most := vuSecond(p, int32(i), seg); perScenario[i] > most {
			return fmt.Errorf("scenario %q: %s", name, tooMany(perScenario[i], "requests", p, int32(i), seg))
		}
		if n := s.Scenarios[i].Iterations; n > vuSecond(p, int32(i), seg) {
			return fmt.Errorf("scenario %q: %s", name, tooMany(n, "iterations", p, int32(i), seg))
		}
	}
	return nil
}

// vuSecond is the most requests, or iterations, scenario sc's share of
// the VUs can complete in a second.
func vuSecond(p *plan.Plan, sc int32, seg plan.Segment) int64 {
	if int(sc) >= len(p.Scenarios) {
		return 0
	}
	return segmentVUs(&p.Scenarios[sc].Load, seg) * perVUSecond
}

// tooMany words a count past vuSecond, e.g. "4,611,686,018,427,388,304
// requests in a second, more than its 3 VUs could complete (3,000,000,
// one a microsecond each)".
func tooMany(n int64, what string, p *plan.Plan, sc int32, seg plan.Segment) string {
	vus := segmentVUs(&p.Scenarios[sc].Load, seg)
	return fmt.Sprintf("%s %s in a second, more than its %s could complete (%s, one a microsecond each)",
		units.Count(n), what, units.CountOf(vus, "VU", "VUs"), units.Count(vus*perVUSecond))
}

// bytesSecond says why the bytes of second s are more than an agent can
// send or receive in a second; nil when they are not.
func bytesSecond(s *metrics.Snapshot) error {
	var sent, received int64 // each at most maxBytesSecond: no sum below overflows
	for i := range s.Endpoints {
		e := &s.Endpoints[i]
		if e.Sent > maxBytesSecond-sent {
			return tooManyBytes("sent", sent, e.Sent)
		}
		if e.Received > maxBytesSecond-received {
			return tooManyBytes("received", received, e.Received)
		}
		sent, received = sent+e.Sent, received+e.Received
	}
	return nil
}

// tooManyBytes words bytes past maxBytesSecond: had, then n more.
func tooManyBytes(what string, had, n int64) error {
	total := units.Bytes(had) + " and " + units.Bytes(n)
	if had == 0 {
		total = units.Bytes(n)
	}
	return fmt.Errorf("bytes %s: %s in a second, more than a host can move (%s)", what, total, units.Bytes(maxBytesSecond))
}

// sendTimes says why an endpoint's requests of second sec could not have
// been sent and ended when it says: before the run's start, or after the
// second's end (and secondMargin more). The rates divide and add these
// offsets (Run.Active), which a tampered 2^62 would overflow.
func sendTimes(e *metrics.EndpointSecond, sec int) error {
	end := time.Duration(sec+1)*time.Second + secondMargin
	if e.StartedBefore > end {
		return fmt.Errorf("its earliest request started %s before second %d, before the start", units.Duration(e.StartedBefore), sec)
	}
	if s := e.Sends; s.Kept && (s.FirstStart < 0 || s.LastEnd > end) {
		return fmt.Errorf("its requests were sent from %s into the run and ended by %s, not between the start and the end of second %d (and %s)",
			units.Duration(s.FirstStart), units.Duration(s.LastEnd), sec, units.Duration(secondMargin))
	}
	return nil
}
