package mock

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"
)

// z-scores of the percentiles a log-normal latency may be given by, besides p50.
var lognormalZ = map[string]float64{
	"p75":   0.6744897501960817,
	"p90":   1.2815515655446004,
	"p95":   1.6448536269514722,
	"p99":   2.3263478740408408,
	"p99.9": 3.090232306167813,
}

// Latency is a distribution of delays added before a response: fixed,
// uniform, normal, log-normal or given by percentiles. The zero Latency adds
// nothing.
type Latency struct {
	Kind      string        // "", fixed, uniform, normal, lognormal or percentiles
	Fixed     time.Duration // fixed
	Min, Max  time.Duration // uniform
	Mean, Std time.Duration // normal; draws below 0 are 0
	Mu, Sigma float64       // lognormal, of the delay in seconds
	P50       time.Duration // lognormal: as given
	TailName  string        // lognormal: the other percentile given (p99, ...)
	Tail      time.Duration // lognormal: its value
	Points    []Point       // percentiles, by ascending quantile, from q=0 to q=1

	// percentiles: p0 and p100 were not given but drawn to close the
	// distribution; String and Config leave them out, so that the mock
	// never shows a figure the config did not state.
	impliedMin, impliedMax bool
}

// Point is one percentile of a latency given by percentiles.
type Point struct {
	Q float64       // quantile, 0 to 1
	D time.Duration // the delay at Q
}

// lognormal returns the log-normal distribution whose median is p50 and whose
// percentile tailName is tail.
func lognormal(p50 time.Duration, tailName string, tail time.Duration) Latency {
	sigma := math.Log(tail.Seconds()/p50.Seconds()) / lognormalZ[tailName]
	return Latency{Kind: "lognormal", Mu: math.Log(p50.Seconds()), Sigma: sigma, P50: p50, TailName: tailName, Tail: tail}
}

// percentiles returns the distribution through the given points: linear
// between them, from 0 at p0 unless p0 is given, and on past the highest with
// the slope of the last two points up to p100 unless p100 is given.
func percentiles(given []Point) Latency {
	pts := slices.Clone(given)
	slices.SortFunc(pts, func(a, b Point) int { return cmpFloat(a.Q, b.Q) })
	l := Latency{Kind: "percentiles"}
	if pts[0].Q > 0 {
		pts = slices.Insert(pts, 0, Point{Q: 0, D: 0})
		l.impliedMin = true
	}
	if last := pts[len(pts)-1]; last.Q < 1 {
		prev := pts[len(pts)-2]
		slope := float64(last.D-prev.D) / (last.Q - prev.Q)
		// Capped in float: a steep slope between close percentiles overflows a time.Duration.
		top := min(float64(last.D)+slope*(1-last.Q), float64(max(maxLatency, last.D)))
		pts = append(pts, Point{Q: 1, D: time.Duration(top)})
		l.impliedMax = true
	}
	l.Points = pts
	return l
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// Sample draws one delay, from r or, when r is nil, from math/rand/v2's
// top-level source (safe for concurrent use without a lock).
func (l *Latency) Sample(r *rand.Rand) time.Duration {
	return min(l.sample(r), maxLatency)
}

// sample draws one delay, unbounded but for the log-normal's, which is
// capped before it can overflow a time.Duration.
func (l *Latency) sample(r *rand.Rand) time.Duration {
	switch l.Kind {
	case "fixed":
		return l.Fixed
	case "uniform":
		return l.Min + time.Duration(float64(l.Max-l.Min)*uniform(r))
	case "normal":
		return max(0, l.Mean+time.Duration(float64(l.Std)*normal(r)))
	case "lognormal":
		return time.Duration(min(math.Exp(l.Mu+l.Sigma*normal(r))*1e9, float64(maxLatency)))
	case "percentiles":
		return l.at(uniform(r))
	}
	return 0
}

// at is the inverse distribution function of a latency given by percentiles.
func (l *Latency) at(u float64) time.Duration {
	pts := l.Points
	i, _ := slices.BinarySearchFunc(pts, u, func(p Point, u float64) int { return cmpFloat(p.Q, u) })
	switch {
	case i == 0:
		return pts[0].D
	case i >= len(pts):
		return pts[len(pts)-1].D
	}
	a, b := pts[i-1], pts[i]
	return a.D + time.Duration(float64(b.D-a.D)*(u-a.Q)/(b.Q-a.Q))
}

func uniform(r *rand.Rand) float64 {
	if r == nil {
		return rand.Float64()
	}
	return r.Float64()
}

func normal(r *rand.Rand) float64 {
	if r == nil {
		return rand.NormFloat64()
	}
	return r.NormFloat64()
}

// String describes the distribution as the config writes it.
func (l *Latency) String() string {
	switch l.Kind {
	case "fixed":
		return l.Fixed.String()
	case "uniform":
		return fmt.Sprintf("uniform %s..%s", l.Min, l.Max)
	case "normal":
		return fmt.Sprintf("normal mean %s, stddev %s", l.Mean, l.Std)
	case "lognormal":
		return fmt.Sprintf("lognormal p50 %s, %s %s", l.P50, l.TailName, l.Tail)
	case "percentiles":
		var parts []string
		for _, p := range l.given() {
			parts = append(parts, fmt.Sprintf("%s %s", quantileName(p.Q), p.D))
		}
		return "percentiles " + strings.Join(parts, ", ")
	}
	return "none"
}

// Config returns the distribution as a mock.yaml value, for the admin API.
func (l *Latency) Config() any {
	switch l.Kind {
	case "fixed":
		return l.Fixed.String()
	case "uniform":
		return map[string]any{"uniform": map[string]string{"min": l.Min.String(), "max": l.Max.String()}}
	case "normal":
		return map[string]any{"normal": map[string]string{"mean": l.Mean.String(), "stddev": l.Std.String()}}
	case "lognormal":
		return map[string]any{"lognormal": map[string]string{"p50": l.P50.String(), l.TailName: l.Tail.String()}}
	case "percentiles":
		m := map[string]string{}
		for _, p := range l.given() {
			m[quantileName(p.Q)] = p.D.String()
		}
		return map[string]any{"percentiles": m}
	}
	return nil
}

// given is the percentiles as the config gave them, without the p0 and p100
// drawn to close the distribution.
func (l *Latency) given() []Point {
	pts := l.Points
	if l.impliedMin {
		pts = pts[1:]
	}
	if l.impliedMax {
		pts = pts[:len(pts)-1]
	}
	return pts
}

// quantileName writes quantile q as a percentile key: 0.99 is p99.
func quantileName(q float64) string {
	return "p" + strconv.FormatFloat(math.Round(q*1e6)/1e4, 'f', -1, 64)
}
