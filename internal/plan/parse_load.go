package plan

import (
	"math"
	"time"

	"github.com/loadlens/loadlens/internal/yamldoc"
)

// Load model defaults and bounds.
const (
	DefaultTimeUnit    = time.Second      // rates are per second unless time_unit says otherwise
	DefaultMaxDuration = 10 * time.Minute // an iterations scenario gives up after this long
	maxDefaultVUs      = 100000           // ceiling of the computed max_vus default
	// iterationSlack is what the default max_vus adds to an iteration's
	// worst case: a timed-out request still holds its VU while the late
	// deadline fires (tens of ms on a busy host), the failure is recorded
	// and the connection closed, and arrival_slack starts arrivals early;
	// without it, ceil(rate × timeout) VUs drop an arrival whenever one
	// frees a moment after the next is due (trial defect B: 5 of 30 at 10/s).
	iterationSlack = time.Second

	// DefaultArrivalSlack is how early an arrival may start with one due
	// before it: below it, a wake-up per arrival costs more CPU than the
	// request (docs/generator.md, "Arrival slack").
	DefaultArrivalSlack = 500 * time.Microsecond
	// MaxArrivalSlack bounds arrival_slack: more would bunch arrivals
	// into bursts a target notices.
	MaxArrivalSlack = 5 * time.Millisecond
)

// load parses the keys of model m; flow sizes the default max_vus. It
// returns the VUs the load needs, checked against the machine.
func (p *parser) load(o *yamldoc.Object, m Model, flow []Step) (Load, vuNeed) {
	switch m {
	case VUs:
		return p.vusLoad(o)
	case Iterations:
		return p.iterationsLoad(o)
	}
	return p.arrivalLoad(o, flow)
}

// requestSteps counts the most requests one iteration of flow sends,
// saturated rather than overflowed.
func requestSteps(flow []Step) int64 {
	n, _ := worstCase(flow)
	return n
}

// minRate is the least arrival rate per second: below one iteration a day
// a scenario starts its first iteration and, in any test's length, no other.
const minRate = 1.0 / (24 * 60 * 60)

// rateValue parses a rate per unit: 0, or at least one iteration a day.
func (p *parser) rateValue(unit time.Duration) func(yamldoc.Node) (float64, bool) {
	return func(n yamldoc.Node) (float64, bool) {
		v, ok := p.NonNegative(n, "a number")
		if ok && v > 0 && v/unit.Seconds() < minRate {
			p.Errs.Add(n.Pos, n.Path, "less than one iteration a day; the least rate is one a day (1 with time_unit: 24h), or 0 in a stage for none")
			return 0, false
		}
		return v, ok
	}
}

// arrivalLoad parses an arrival-rate scenario.
func (p *parser) arrivalLoad(o *yamldoc.Object, flow []Step) (Load, vuNeed) {
	l := Load{Model: ArrivalRate}
	unit := DefaultTimeUnit
	if n, ok := o.Get("time_unit"); ok {
		if d, ok := p.PositiveDuration(n); ok {
			unit = d
		}
	}
	perSecond := func(r float64) float64 { return r / unit.Seconds() }
	start, stages, peakAt, ok := p.stages(o, "rate", "start_rate", p.rateValue(unit))
	if !ok {
		// The rate is wrong, but the VUs' and slack's errors are worth
		// reporting too: every problem at once.
		p.arrivalVUs(o)
		p.arrivalSlack(o)
		return l, vuNeed{}
	}
	l.StartRate = perSecond(start)
	peak := l.StartRate
	for _, s := range stages {
		s.Target = perSecond(s.Target)
		peak = max(peak, s.Target)
		l.Stages = append(l.Stages, s)
	}
	if peak == 0 {
		p.Errs.Add(o.Key, o.Path, "the rate is 0 in every stage: no iteration would start")
	} else {
		p.checkRate(peakAt, peak, requestSteps(flow))
	}
	v := p.arrivalVUs(o)
	maxVUs, maxSet, hasMax, pre, preSet := v.max, v.maxSet, v.hasMax, v.pre, v.preSet
	if !maxSet {
		maxVUs = defaultMaxVUs(peak, flow)
		if preSet {
			maxVUs = max(maxVUs, pre)
		}
	}
	if !preSet {
		pre = min(maxVUs, max(1, int(math.Ceil(peak))))
	}
	if maxSet && preSet && pre > maxVUs {
		p.Errs.Add(o.KeyPos("pre_allocated_vus"), yamldoc.JoinPath(o.Path, "pre_allocated_vus"),
			"pre_allocated_vus (%d) is more than max_vus (%d)", pre, maxVUs)
	}
	l.MaxVUs, l.PreAllocatedVUs = maxVUs, pre
	l.ArrivalSlack = p.arrivalSlack(o)
	need := vuNeed{vus: maxVUs, defaults: !hasMax, pre: -1}
	if preSet {
		need.pre = pre
	}
	return l, need
}

// arrivalVUsKeys is what an arrival-rate scenario says of its VUs.
type arrivalVUsKeys struct {
	max, pre               int
	hasMax, maxSet, preSet bool // max_vus given; max_vus and pre_allocated_vus given and valid
}

// arrivalVUs parses max_vus and pre_allocated_vus, reporting their errors.
func (p *parser) arrivalVUs(o *yamldoc.Object) arrivalVUsKeys {
	var k arrivalVUsKeys
	var maxNode yamldoc.Node
	if maxNode, k.hasMax = o.Get("max_vus"); k.hasMax {
		if k.max, k.maxSet = p.Count(maxNode, 1); k.maxSet {
			k.maxSet = p.checkVUs(maxNode, k.max, "VUs (max_vus)")
		}
	}
	if n, ok := o.Get("pre_allocated_vus"); ok {
		if k.pre, k.preSet = p.Count(n, 0); k.preSet {
			k.preSet = p.checkVUs(n, k.pre, "pre-allocated VUs")
		}
	}
	return k
}

// defaultMaxVUs sizes max_vus so that iterations at the peak rate that all
// take their worst-case time (every request timing out, every think at its
// maximum) still find a VU, with the arrivals of one more second
// (iterationSlack) for an iteration's time beyond its timeouts: a stalled
// target then shows up as latency, not as a capped rate.
func defaultMaxVUs(peakPerSecond float64, flow []Step) int {
	_, d := worstCase(flow)
	worst := cappedAdd(iterationSlack, d)
	n := math.Ceil(peakPerSecond * worst.Seconds())
	return int(min(max(n, 1), maxDefaultVUs))
}

// vusLoad parses a vus scenario.
func (p *parser) vusLoad(o *yamldoc.Object) (Load, vuNeed) {
	l := Load{Model: VUs, GracefulRampDown: DefaultGracefulRampDown}
	if n, ok := o.Get("graceful_ramp_down"); ok {
		l.GracefulRampDown, _ = p.Duration(n)
	}
	start, stages, peakAt, ok := p.stages(o, "vus", "start_vus", func(n yamldoc.Node) (float64, bool) {
		i, ok := p.Count(n, 0)
		return float64(i), ok
	})
	if !ok {
		return l, vuNeed{}
	}
	l.StartVUs = int(start)
	l.Stages = stages
	peak := start
	for _, s := range stages {
		peak = max(peak, s.Target)
	}
	if peak == 0 {
		p.Errs.Add(o.Key, o.Path, "the VU count is 0 in every stage: no VU would run")
		return l, vuNeed{}
	}
	p.checkVUs(peakAt, int(peak), "VUs")
	return l, vuNeed{vus: int(peak)}
}

// iterationsLoad parses an iterations scenario.
func (p *parser) iterationsLoad(o *yamldoc.Object) (Load, vuNeed) {
	l := Load{Model: Iterations, VUCount: 1, MaxDuration: DefaultMaxDuration}
	vusNode, hasVUs := o.Get("vus")
	if hasVUs {
		if n, ok := p.Count(vusNode, 1); ok {
			l.VUCount = n
			p.checkVUs(vusNode, n, "VUs")
		}
	}
	if n, ok := o.Get("iterations"); ok {
		l.Count, _ = p.Integer(n, 1)
	} else {
		p.Errs.Missing(o.Key, o.Path, o.Path, "missing key \"iterations\": how many iterations to run in total")
	}
	if n, ok := o.Get("max_duration"); ok {
		var valid bool
		if l.MaxDuration, valid = p.PositiveDuration(n); valid && !p.addLength(&p.length, n, l.MaxDuration) {
			l.MaxDuration = DefaultMaxDuration // reported; keeps the scenario's sum below the bound
		}
	}
	if l.Count > 0 && l.VUCount > 0 && l.Count < int64(l.VUCount) {
		p.Errs.Add(o.KeyPos("vus"), yamldoc.JoinPath(o.Path, "vus"),
			"vus (%d) is more than iterations (%d): some VUs would never run an iteration", l.VUCount, l.Count)
	}
	return l, vuNeed{vus: l.VUCount}
}

// stages parses the shorthand (level + duration: a constant level) or the
// long form (startKey + stages). Levels are rates or, with whole, VU counts.
// It also returns the node of the highest level, for errors about it.
func (p *parser) stages(o *yamldoc.Object, level, startKey string, value func(yamldoc.Node) (float64, bool)) (float64, []Stage, yamldoc.Node, bool) {
	levelNode, hasLevel := o.Get(level)
	durNode, hasDur := o.Get("duration")
	stagesNode, hasStages := o.Get("stages")
	switch {
	case hasLevel && hasStages:
		p.Errs.Add(o.KeyPos("stages"), yamldoc.JoinPath(o.Path, "stages"), "use either %s with duration, or %s with stages, not both", level, startKey)
		return 0, nil, yamldoc.Node{}, false
	case hasLevel && !hasDur:
		value(levelNode) // a wrong type is worth reporting too
		p.Errs.Missing(o.KeyPos(level), o.Path, yamldoc.JoinPath(o.Path, level), "%s needs duration (how long to hold it), or use %s with stages", level, startKey)
		return 0, nil, yamldoc.Node{}, false
	case hasLevel:
		return p.constantLevel(o, level, startKey, levelNode, durNode, value)
	case hasDur:
		p.Errs.Add(o.KeyPos("duration"), yamldoc.JoinPath(o.Path, "duration"), "duration needs %s (a constant level), or use %s with stages", level, startKey)
		return 0, nil, yamldoc.Node{}, false
	case !hasStages:
		p.Errs.Add(o.Key, o.Path, "missing the load: give %s and duration, or %s and stages", level, startKey)
		return 0, nil, yamldoc.Node{}, false
	}
	return p.stageList(o, startKey, stagesNode, value)
}

// constantLevel parses the shorthand: level held for duration.
func (p *parser) constantLevel(o *yamldoc.Object, level, startKey string, levelNode, durNode yamldoc.Node, value func(yamldoc.Node) (float64, bool)) (float64, []Stage, yamldoc.Node, bool) {
	if o.Has(startKey) {
		p.Errs.Add(o.KeyPos(startKey), yamldoc.JoinPath(o.Path, startKey), "%s goes with stages; with %s and duration the level is constant", startKey, level)
		return 0, nil, yamldoc.Node{}, false
	}
	v, ok := value(levelNode)
	if ok && v == 0 {
		p.Errs.Add(levelNode.Pos, levelNode.Path, "must be greater than 0")
		ok = false
	}
	d, durOK := p.PositiveDuration(durNode) // checked whatever the level was: every problem at once
	if !ok || !durOK {
		return 0, nil, yamldoc.Node{}, false
	}
	if !p.addLength(&p.length, durNode, d) {
		return 0, nil, yamldoc.Node{}, false
	}
	return v, []Stage{{Duration: d, Target: v}}, levelNode, true
}

// stageList parses the long form: startKey, then a list of stages, each a
// duration and a target level.
func (p *parser) stageList(o *yamldoc.Object, startKey string, stagesNode yamldoc.Node, value func(yamldoc.Node) (float64, bool)) (float64, []Stage, yamldoc.Node, bool) {
	var start, peak float64
	var peakAt yamldoc.Node
	ok := true
	if n, has := o.Get(startKey); has {
		start, ok = value(n)
		peak, peakAt = start, n
	}
	items, listOK := p.List(stagesNode, "a list of stages like {duration: 1m, target: 10}")
	if !listOK {
		return 0, nil, yamldoc.Node{}, false
	}
	var stages []Stage
	var total time.Duration
	for _, item := range items {
		so, objOK := p.Object(item, "a stage like {duration: 1m, target: 10}", []string{"duration", "target"})
		if !objOK {
			ok = false
			continue
		}
		var st Stage
		if n, has := so.Get("duration"); has {
			st.Duration, objOK = p.Duration(n)
			ok = ok && objOK && p.addLength(&p.length, n, st.Duration)
		} else {
			p.Errs.Missing(item.Key, item.Path, item.Path, "missing key \"duration\"")
			ok = false
		}
		if n, has := so.Get("target"); has {
			st.Target, objOK = value(n)
			ok = ok && objOK
			if objOK && (peakAt.V == nil || st.Target > peak) {
				peak, peakAt = st.Target, n
			}
		} else {
			p.Errs.Missing(item.Key, item.Path, item.Path, "missing key \"target\"")
			ok = false
		}
		total += st.Duration
		stages = append(stages, st)
	}
	if ok && total == 0 {
		p.Errs.Add(stagesNode.Pos, stagesNode.Path, "needs at least one stage with a duration above 0")
		ok = false
	}
	return start, stages, peakAt, ok
}

// arrivalSlack parses arrival_slack: 0 spaces every arrival exactly.
func (p *parser) arrivalSlack(o *yamldoc.Object) time.Duration {
	n, ok := o.Get("arrival_slack")
	if !ok {
		return DefaultArrivalSlack
	}
	d, ok := p.Duration(n)
	if !ok {
		return DefaultArrivalSlack
	}
	if d > MaxArrivalSlack {
		p.Errs.Add(n.Pos, n.Path, "arrival_slack %s is more than %s: arrivals would start in bursts the target notices (0s spaces them exactly)", d, MaxArrivalSlack)
		return DefaultArrivalSlack
	}
	return d
}
