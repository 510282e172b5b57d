package diagnose

import (
	"math"

	"github.com/loadlens/loadlens/internal/metrics"
)

// lagMaterial is the share of a latency figure the generator's start lag
// must reach to explain a material part of it: history leaves a disturbed
// run out of a figure from there (history.materialShare), and the busy
// host's finding grades its words by the same tenth. Trial A39's fixed
// item run had a lag p99 of 44.8 ms at its worst second on a service with
// a 40 ms floor: its median was the service's own.
const lagMaterial = 0.1

// lagLevel is the generator's lag over the run at one latency percentile,
// beside that percentile of the latencies.
type lagLevel struct {
	q        float64
	lag, lat ref  // the lag and the latency at the level
	share    ref  // the lag over the latency, a derived figure
	material bool // the lag is lagMaterial or more of the latency
}

// lagLevels weighs the run's start lag at p50, p95 and p99 against the
// latencies at the same levels (a latency is timed from the intended
// start, so the lag at a level is what lateness can add there). It
// returns none when the run recorded no lag (a closed model) or no
// latency.
func (c *context) lagLevels(b *builder) []lagLevel {
	if c.run == nil || len(c.run.Series) == 0 {
		return nil
	}
	h := metrics.NewHist()
	for i := range c.run.Scenarios {
		if l := c.run.Scenarios[i].Lag; l != nil {
			h.Merge(l)
		}
	}
	if h.Count() == 0 {
		return nil
	}
	first, last := c.run.Series[0].Sec, c.run.Series[len(c.run.Series)-1].Sec
	var out []lagLevel
	for _, q := range []float64{50, 95, 99} {
		qn := QuantileName(q)
		lat := c.quantile(q, UnitDuration, "the run's "+qn+" latency")
		if math.IsNaN(lat.Value) || lat.Value <= 0 {
			return nil
		}
		lag := Figure{Value: secs(h.Quantile(q)), Unit: UnitDuration, What: "the generator's start lag over the run, " + qn,
			Source: SrcLagHist, Stat: StatQuantile, Q: q, From: first, To: last}
		lr, tr := b.add(lag), b.add(lat)
		share := b.derive(StatRatio, UnitFraction, "the lag's share of the "+qn+" latency", lr, tr)
		out = append(out, lagLevel{q: q, lag: lr, lat: tr, share: share, material: b.fig(share).Value >= lagMaterial})
		b.evidence(share, "the generator's lag over the run, ", name(qn), ": ", lr, " of the ", name(qn), " latency ", tr, " (", share, ")")
	}
	return out
}

// lagGrade returns the end of the busy host's title and its first remedy
// by how much of the latencies the lag could explain: all of them when it
// reached a tenth of the median (the numbers are not the target's), the
// figures it reached a tenth of when only the tail's, none (a warning)
// when it stayed under a tenth of each. ok is false without lag levels.
func lagGrade(b *builder, levels []lagLevel) (end []any, remedy string, ok bool) {
	if len(levels) == 0 || levels[0].material {
		return nil, "", false
	}
	var hit, stand []lagLevel
	for _, l := range levels {
		if l.material {
			hit = append(hit, l)
		} else {
			stand = append(stand, l)
		}
	}
	if len(hit) == 0 {
		b.f.Severity = Warning
		return append(append([]any{"; but its lag stayed under a tenth of every latency figure ("}, levelShare(levels[len(levels)-1])...),
				"): the latencies are the target's, a little high"),
			"the latencies stand: the generator's lag was under a tenth of each; re-run on a quiet host for exact ones", true
	}
	end = []any{"; its lag could explain a material part of the "}
	end = append(end, levelNames(hit)...)
	worst := levelShare(hit[len(hit)-1])
	if len(hit) == 1 {
		worst = worst[1:] // the p99 is named just before
		worst[0] = "lag "
	}
	end = append(append(append(end, " ("), worst...), "), under a tenth of the ")
	end = append(end, levelNames(stand)...)
	end = append(end, ": those are the target's")
	of, stands := map[bool]string{true: "it", false: "each"}[len(hit) == 1], map[bool]string{true: " stands", false: " stand"}[len(stand) == 1]
	return end, "do not use the " + levelWords(hit) + ": the generator's lag is a tenth or more of " + of + "; the " + levelWords(stand) + stands, true
}

// levelNames names the percentiles of levels as title parts: "p95 and p99".
func levelNames(levels []lagLevel) []any {
	var out []any
	for i, l := range levels {
		if i > 0 {
			out = append(out, map[bool]string{true: " and ", false: ", "}[i == len(levels)-1])
		}
		out = append(out, name(QuantileName(l.q)))
	}
	return out
}

// levelWords is levelNames as plain words, for a remedy.
func levelWords(levels []lagLevel) string {
	var s string
	for i, l := range levels {
		if i > 0 {
			s += map[bool]string{true: " and ", false: ", "}[i == len(levels)-1]
		}
		s += QuantileName(l.q)
	}
	return s
}

// levelShare is a level's lag beside its latency: "p99: lag 17.3ms, 19.5%
// of 88.8ms".
func levelShare(l lagLevel) []any {
	return []any{name(QuantileName(l.q)), ": lag ", l.lag, ", ", l.share, " of ", l.lat}
}
