package diagnose

import (
	"github.com/loadlens/loadlens/internal/spans"
)

// Shares of the slow tail's time that outgoing calls to one host must
// take. Higher than trace-db-tail's half: a dependency that answers in
// about the service's own time (a fast one on loopback took 30–60 % of a
// small endpoint's time) is not slow; a slow one takes nearly all of it
// (a 300 ms dependency: 96 % of the median requests). On a busy host the
// tail also holds the service's own stalls (a real JVM's tail: 76 % in
// the calls, 20 % in the service), so a tail of at least half is enough
// when the median requests are mostly the calls too.
const (
	httpTailShare   = 0.75 // of the tail alone
	httpTailHalf    = 0.5  // of the tail ...
	httpMedianShare = 0.75 // ... when the median band's share is at least this
)

// KindTraceHTTPTail: an endpoint's slow tail is mostly outgoing HTTP
// calls to one host, a slow external dependency.
const KindTraceHTTPTail = "trace-http-tail"

// traceHTTPTail names the host an endpoint's p95 waits on, from the spans
// the target exported: "p95 of GET /x is 91 % in calls to 127.0.0.1:9400".
func traceHTTPTail(c *context) []Finding {
	var fs []Finding
	for i := range c.traces {
		b := &c.traces[i]
		if b.Traces < tailMinJoined || b.Tail.Traces < tailMinTraces || b.Tail.Duration <= 0 {
			continue
		}
		for _, p := range b.Tail.Parts { // largest first: the first host is the one
			if p.Kind != spans.PartHTTP {
				continue
			}
			if b.Tail.Share(p) >= httpTailShare || b.Tail.Share(p) >= httpTailHalf && b.Median.Share(medianPart(b, p)) >= httpMedianShare {
				fs = append(fs, c.httpTailFinding(b, p))
			}
			break
		}
	}
	return fs
}

func (c *context) httpTailFinding(b *spans.Breakdown, p spans.Part) Finding {
	v := c.newTailView(KindTraceHTTPTail, b)
	bld := v.bld
	in := v.mean(p.Time, "mean time of those requests in calls to the host", traceSrc(v.ep, groupTail, spans.PartHTTP, p.Name))
	share := bld.derive(StatRatio, UnitFraction, "share of the slow tail's time in calls to the host", in, v.tail)
	n := v.count(b)
	bld.title(name("p95"), " of ", name(v.ep), " is ", share, " in calls to ", name(p.Name))
	bld.evidence(share, "the ", n, " slowest requests (", name("p95"), " ", v.p95, " and above) took ", v.tail, " on average, ", in,
		" of it waiting for ", name(p.Name))
	if b.Median.Traces > 0 {
		mt := v.mean(partOf(b.Median.Parts, p), "mean time of the median requests in calls to the host", traceSrc(v.ep, groupMedian, spans.PartHTTP, p.Name))
		md := v.mean(b.Median.Duration, "mean duration of the median requests", traceSrc(v.ep, groupMedian, ""))
		bld.evidence(mt, "at the median: ", mt, " of ", md, " in calls to ", name(p.Name))
	}
	return bld.done(v.from, v.to)
}

// medianPart is the median band's part of the same kind and name as p.
func medianPart(b *spans.Breakdown, p spans.Part) spans.Part {
	return spans.Part{Kind: p.Kind, Name: p.Name, Time: partOf(b.Median.Parts, p)}
}
