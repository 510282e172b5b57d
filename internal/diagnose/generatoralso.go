package diagnose

import (
	"math"
	"strings"

	"github.com/loadlens/loadlens/internal/sample"
)

// NotTheTargets ends the title of a generator finding that the target's own
// trouble does not follow: a caller that judged the figures the target's
// anyway (a capacity step past its latency limit beyond the lag) drops it.
const NotTheTargets = "; the numbers are not the target's"

// While the generator was late, the target's own trouble keeps a finding
// about the generator from saying "the numbers are not the target's": it
// answered at least genTargetFailed of the requests with one error of its
// own (a status, a refused connection), or, with drops the engine did not
// blame on loadlens's CPU, answered genLatencyRose × as slowly as before
// (the trial's naive shop: 99.6 % 503s and 1.35× the latency beside a
// busy host read "the target was not slower"). The generator's finding
// then follows the target's, as a warning: its latencies carry the lag.
const (
	genTargetFailed = errRunShare
	genLatencyRose  = 1.2
)

// answeredKind reports whether a failure is an answer of the target: a
// status, or a refused connection. A timeout, a reset or a cut-off request
// may be loadlens's own lateness in reading.
func answeredKind(k sample.Kind) bool {
	switch k {
	case sample.HTTP4xx, sample.HTTP5xx, sample.ConnRefused:
		return true
	case sample.GRPCCancelled, sample.GRPCDeadlineExceeded:
		return false
	}
	return k > sample.GRPCCancelled && k < sample.NumKinds
}

// Answered counts the failures of a second or a run that are answers of
// the target (answeredKind): what no lateness of loadlens makes, only a
// burst it released.
func Answered(failures [sample.NumKinds]int64) int64 {
	var n int64
	for k, c := range failures {
		if answeredKind(sample.Kind(k)) {
			n += c
		}
	}
	return n
}

// targetFailed returns the words that say the target answered a material
// share of the requests between two seconds with an error of its own (its
// most frequent one), and adds their evidence; nil when it did not.
func (c *context) targetFailed(b *builder, from, to int) []any {
	top, most := sample.OK, 0.0
	for k := sample.OK + 1; k < sample.NumKinds; k++ {
		if !answeredKind(k) {
			continue
		}
		if n := aggregate(c.values(c.client(SrcFailed, "kind", k.String())), StatSum, from, to); n > most {
			top, most = k, n
		}
	}
	reqs := aggregate(c.values(c.client(SrcRequests)), StatSum, from, to)
	if math.IsNaN(most) || math.IsNaN(reqs) || most < errMin || most < genTargetFailed*reqs {
		return nil
	}
	n := b.add(c.fig(c.client(SrcFailed, "kind", top.String()), StatSum, from, to, UnitCount, "{requests} the target answered with "+top.String()+" meanwhile"))
	r := b.add(c.fig(c.client(SrcRequests), StatSum, from, to, UnitCount, "{requests} completed meanwhile"))
	share := b.derive(StatRatio, UnitRate, "share of the {requests} meanwhile answered with "+top.String(), n, r)
	b.evidence(share, "meanwhile the target answered ", n, " of ", r, c.noun(b, r, " ", " with "), name(top.String()),
		" (", share, "): its own answers, which no lag of the generator makes")
	return []any{"the target answered ", share, " of " + c.counts().Many + " meanwhile with ", name(top.String())}
}

// generatorTitle words the generator-bound finding from its signals'
// words (parts), with a distributed run's remedies: the bottleneck, or, beside the target's own errors,
// slowdown (also, from the drops) or queue (targetqueue.go), a warning that follows them.
func (c *context) generatorTitle(b *builder, from, to int, parts, also []any, cpuBusy bool) {
	if c.distributed() {
		b.f.Remedies = agentRemedies(b.f.Remedies)
	}
	if f := c.targetFailed(b, from, to); f != nil {
		also = f // its errors say more than a slowdown under the generator's lag
	} else if st, ok := c.generatorStarved(to); ok && len(also) == 0 {
		parts = append(parts, c.starvedWords(b, st)...) // its lag understates how late it read the answers
	} else if len(also) == 0 && !cpuBusy { // loadlens's own CPU used up loses more than its lag shows
		if also = c.targetQueued(b, from); also == nil {
			also = c.targetStepped(b)
		}
	}
	onset := b.second(from, StatOnset, "the first second the generator limited the test")
	if len(also) > 0 {
		alsoTitle(b, append([]any{"The load generator also limited the test from ", onset, ": "}, parts...), also)
		return
	}
	b.title(append(append([]any{"The load generator is the bottleneck from ", onset, ": "}, parts...), NotTheTargets)...)
}

// alsoTitle words a generator finding that follows the target's own
// trouble (also): the generator was late too, so the latencies carry its
// lag, but the errors and the slowdown are the target's. It lowers the
// finding to a warning, so that the target's finding leads.
func alsoTitle(b *builder, head, also []any) {
	b.f.Severity, b.f.FollowsTarget = Warning, true
	rs := []string{"read the target's own findings first: its errors and slowdown are its own; re-run on a quiet generator for latencies without its lag"}
	for _, r := range b.f.Remedies {
		if !strings.HasPrefix(r, "do not use these figures") { // its answers are the target's
			rs = append(rs, r)
		}
	}
	b.f.Remedies = rs
	t := append(append(head, "; but "), also...)
	b.title(append(t, ": the generator's lag is in the latencies, not in the target's answers")...)
}

// dropLatency adds the evidence of the target's mean response time while
// dropping against before, with its ratio, and says whether the target was
// slower by genLatencyRose with nothing of loadlens's own to explain it
// (self: the engine saw its VUs wait for a CPU).
func (c *context) dropLatency(b *builder, baseline, during Figure, self bool) (rose []any) {
	if math.IsNaN(baseline.Value) || math.IsNaN(during.Value) {
		return nil
	}
	bl, du := b.add(baseline), b.add(during)
	ratio := b.derive(StatRatio, UnitRatio, "mean response time while dropping over before", du, bl)
	r := b.fig(ratio).Value
	switch {
	case r < genLatencyRose:
		b.evidence(du, "mean response time meanwhile ", du, ", before ", bl, " (", ratio, "): the target was not slower")
	case self:
		b.evidence(du, "mean response time meanwhile ", du, ", before ", bl, " (", ratio, "): it holds loadlens's own wait for a CPU")
	default:
		b.evidence(du, "mean response time meanwhile ", du, ", before ", bl, " (", ratio, "): the target was slower, if by less than half again, from which the drops are its alone")
		return []any{"the target's responses took ", ratio, " as long as before"}
	}
	return nil
}
