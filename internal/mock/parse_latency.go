package mock

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/loadlens/loadlens/internal/yamldoc"
)

var latencyKinds = []string{"fixed", "uniform", "normal", "lognormal", "percentiles"}

// latency reads a duration (fixed) or one of {fixed, uniform, normal,
// lognormal, percentiles: ...}; null or 0 means none.
func (p *configParser) latency(n yamldoc.Node) Latency {
	if n.IsNull() {
		return Latency{}
	}
	if !n.IsMap() {
		d, ok := p.delay(n)
		if !ok || d == 0 {
			return Latency{}
		}
		return Latency{Kind: "fixed", Fixed: d}
	}
	o, ok := p.d.Object(n, "a latency: a duration, or one of "+strings.Join(latencyKinds, ", "), latencyKinds)
	if !ok {
		return Latency{}
	}
	fs := o.Fields
	if len(fs) != 1 {
		p.d.Errorf(n, "give one distribution: %s", strings.Join(latencyKinds, ", "))
		return Latency{}
	}
	v := fs[0].Value
	switch fs[0].Name {
	case "fixed":
		d, _ := p.delay(v)
		return Latency{Kind: "fixed", Fixed: d}
	case "uniform":
		ds, ok := p.durations(v, "{min: 10ms, max: 50ms}", "min", "max")
		if !ok {
			return Latency{}
		}
		if ds["max"] < ds["min"] {
			p.d.Errorf(v, "max (%s) is below min (%s)", ds["max"], ds["min"])
			return Latency{}
		}
		return Latency{Kind: "uniform", Min: ds["min"], Max: ds["max"]}
	case "normal":
		ds, ok := p.durations(v, "{mean: 100ms, stddev: 20ms}", "mean", "stddev")
		if !ok {
			return Latency{}
		}
		return Latency{Kind: "normal", Mean: ds["mean"], Std: ds["stddev"]}
	case "lognormal":
		return p.lognormal(v)
	}
	return p.percentiles(v)
}

// durations reads a mapping of exactly the keys given, each a duration.
func (p *configParser) durations(n yamldoc.Node, example string, keys ...string) (map[string]time.Duration, bool) {
	o, ok := p.d.Object(n, "a mapping like "+example, keys)
	if !ok {
		return nil, false
	}
	out := map[string]time.Duration{}
	for _, k := range keys {
		v, ok := o.Get(k)
		if !ok {
			p.d.Errorf(n, "missing key %q (like %s)", k, example)
			return nil, false
		}
		if out[k], ok = p.delay(v); !ok {
			return nil, false
		}
	}
	return out, true
}

// lognormal reads {p50: D, pNN: D} with pNN one of p75, p90, p95, p99, p99.9.
func (p *configParser) lognormal(n yamldoc.Node) Latency {
	tails := []string{"p75", "p90", "p95", "p99", "p99.9"}
	const example = "{p50: 80ms, p99: 400ms}"
	o, ok := p.d.Object(n, "a mapping like "+example, append([]string{"p50"}, tails...))
	if !ok {
		return Latency{}
	}
	var p50, tail time.Duration
	tailName := ""
	for _, f := range o.Fields {
		d, ok := p.delay(f.Value)
		switch {
		case !ok:
			return Latency{}
		case d <= 0:
			p.d.Errorf(f.Value, "a log-normal latency is above 0")
			return Latency{}
		case f.Name == "p50":
			p50 = d
		case tailName != "":
			p.d.Errorf(f.Value, "give p50 and one other percentile (%s and %s given)", tailName, f.Name)
			return Latency{}
		default:
			tailName, tail = f.Name, d
		}
	}
	if p50 == 0 || tailName == "" {
		p.d.Errorf(n, "give p50 and one of %s, like %s", strings.Join(tails, ", "), example)
		return Latency{}
	}
	if tail <= p50 {
		p.d.Errorf(n, "%s (%s) must be above p50 (%s)", tailName, tail, p50)
		return Latency{}
	}
	return lognormal(p50, tailName, tail)
}

// percentiles reads {p0: D, p50: D, p99: D, ...}: non-decreasing delays.
func (p *configParser) percentiles(n yamldoc.Node) Latency {
	const example = "{p50: 20ms, p90: 60ms, p99: 250ms}"
	o, ok := p.d.Object(n, "a mapping like "+example, nil)
	if !ok {
		return Latency{}
	}
	var pts []Point
	for _, f := range o.Fields {
		q, err := strconv.ParseFloat(strings.TrimPrefix(f.Name, "p"), 64)
		if !strings.HasPrefix(f.Name, "p") || err != nil || q < 0 || q > 100 {
			p.d.Errorf(f.Value, "bad percentile %q: write p0 to p100, like p50 or p99.9", f.Name)
			return Latency{}
		}
		d, ok := p.delay(f.Value)
		if !ok {
			return Latency{}
		}
		pts = append(pts, Point{Q: q / 100, D: d})
	}
	if len(pts) < 2 {
		p.d.Errorf(n, "give at least two percentiles, like %s", example)
		return Latency{}
	}
	sorted := slices.Clone(pts)
	slices.SortStableFunc(sorted, func(a, b Point) int { return cmpFloat(a.Q, b.Q) })
	for i := 1; i < len(sorted); i++ {
		a, b := sorted[i-1], sorted[i]
		if a.Q == b.Q {
			p.d.Errorf(n, "percentile %s is given twice", quantileName(a.Q))
			return Latency{}
		}
		if b.D < a.D {
			p.d.Errorf(n, "%s (%s) is below %s (%s): higher percentiles need longer delays", quantileName(b.Q), b.D, quantileName(a.Q), a.D)
			return Latency{}
		}
	}
	return percentiles(pts)
}

// delay reads one latency figure: a duration of at most maxLatency.
func (p *configParser) delay(n yamldoc.Node) (time.Duration, bool) {
	d, ok := p.d.Duration(n)
	if ok && d > maxLatency {
		p.d.Errorf(n, "latency %s is more than the mock's limit of %s: longer is a hung server; to test a client's timeout, use a latency just above it, or errors: {rate: 100%%, reset: true}", hours(d), hours(maxLatency))
		return 0, false
	}
	return d, ok
}
