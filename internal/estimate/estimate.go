// Package estimate turns business numbers into a load to test with, and a
// measured per-instance throughput into instances, nodes and cost. Every
// step of the arithmetic is kept so that it can be printed and checked by
// hand: a load plan nobody can verify is a guess.
//
// The chain is: a base rate (from daily traffic, an event, a known rate or
// concurrent users) → × headroom → target rate, rounded up to two
// significant figures → virtual users by Little's law N = X·(R+Z) →
// instances → nodes → cost per day.
package estimate

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/loadlens/loadlens/internal/units"
)

// secondsPerDay and secondsPerHour are the divisors of the traffic steps.
const (
	secondsPerDay  = 86400
	secondsPerHour = 3600
)

// Input is what a planner knows. Zero fields are "not given". Exactly one
// load source must be given: daily traffic (DAU with VisitsPerUser, or
// RequestsPerDay), an event (EventUsers, RequestsPerUser, EventWindow), a
// known rate (RPS), or concurrent users (Users, with ResponseTime or ThinkTime).
type Input struct {
	DAU              float64 // daily active users
	VisitsPerUser    float64 // visits per user per day
	RequestsPerVisit float64 // requests one visit sends; 0 means 1
	RequestsPerDay   float64 // instead of DAU × visits
	PeakFactor       float64 // peak rate = average × this (at most one of PeakFactor, PeakHourShare)
	PeakHourShare    float64 // peak rate = this fraction of the day's requests in one hour

	EventUsers      float64       // users taking part in an event
	RequestsPerUser float64       // requests each sends during the event
	EventWindow     time.Duration // how long the event lasts

	RPS   float64 // a known rate, in requests per second
	Users float64 // concurrent users: the rate follows from Little's law

	Headroom float64 // multiplies the base rate: 1.4 plans 40 % above it; 0 means 1

	ResponseTime time.Duration // R of Little's law
	ThinkTime    time.Duration // Z of Little's law

	PerInstance     float64 // requests (Unit) per second one instance sustains
	PerInstanceFrom string  // where that figure comes from, printed with it
	// PerInstanceAtLeast says PerInstance is a lower bound: the run it comes
	// from never reached the instance's limit (every second met the SLO, or
	// no step of a capacity search failed). Instances are then at most the
	// count computed, and the plan says so.
	PerInstanceAtLeast bool
	InstancesPerNode   float64 // instances that fit on one node
	InstancePrice      Price   // price of one instance
	NodePrice          Price   // price of one node

	// Unit is what the load counts: requests, or the gRPC calls or sessions
	// of the run PerInstance was measured in (--from-run); zero: requests.
	// Every rate, count and label of the arithmetic is in it.
	Unit units.Unit `json:",omitzero"`
	// PerInstanceCut is, for a PerInstanceAtLeast figure from a capacity
	// search that ended before any step failed for another reason than
	// reaching its highest rate (a busy host, a spent budget), that reason:
	// the figure is a floor because the search was cut short.
	PerInstanceCut string

	// The shape of the starter test WriteTest writes; zero means the default.
	Ramp        time.Duration // from 0 to the target; default 1m
	Hold        time.Duration // at the target; default 10m
	LatencyGoal time.Duration // the p95 threshold; default 1s
	MaxErrors   float64       // the error-rate threshold as a ratio; default 0.01
}

// Step is one line of the arithmetic: what is computed, how, and the result.
type Step struct {
	Label   string  // e.g. "average rate"
	Formula string  // e.g. "1,500,000 req ÷ 86,400 s"
	Value   float64 // the exact result
	Unit    string  // e.g. "req/s"
}

// Result is the computed load and everything derived from it.
type Result struct {
	Input          Input   // what the estimate was computed from
	Steps          []Step  // every step, in order
	RequestsPerDay float64 // 0 unless the source is daily traffic
	AverageRPS     float64 // 0 unless the source is daily traffic
	PeakRPS        float64 // 0 unless the source is daily traffic
	BaseRPS        float64 // the rate before headroom
	NeededRPS      float64 // base × headroom before rounding: what the instances are planned for
	TargetRPS      float64 // base × headroom, rounded up to two significant figures
	VUs            int     // Little's law for TargetRPS; 0 without R and Z
	Instances      int     // 0 without PerInstance
	Nodes          int     // 0 without InstancesPerNode
	// AtMost says Instances, Nodes and the cost are upper bounds: one
	// instance's capacity is only known to be at least PerInstance.
	AtMost     bool
	CostPerDay float64  // 0 without prices
	Currency   string   // of CostPerDay
	Notes      []string // caveats about the inputs
}

// Estimate computes the load and its consequences from in, step by step.
func Estimate(in Input) (Result, error) {
	if err := validate(in); err != nil {
		return Result{}, err
	}
	r := Result{Input: in}
	base, err := r.baseRate()
	if err != nil {
		return Result{}, err
	}
	r.BaseRPS = base
	r.target()
	r.littlesLaw()
	r.capacity()
	if err := r.cost(); err != nil {
		return Result{}, err
	}
	return r, nil
}

// add appends one step of the arithmetic.
func (r *Result) add(label, formula string, value float64, unit string) {
	r.Steps = append(r.Steps, Step{Label: label, Formula: formula, Value: value, Unit: unit})
}

// baseRate computes the rate before headroom from the one source given.
func (r *Result) baseRate() (float64, error) {
	in, u := r.Input, r.Input.Unit.Or()
	switch {
	case in.DAU > 0 || in.RequestsPerDay > 0:
		return r.daily(), nil
	case in.EventUsers > 0:
		total := in.EventUsers * in.RequestsPerUser
		r.add(u.Many+" in the event", units.Quantity(in.EventUsers, "user", "users")+" × "+u.Quantity(in.RequestsPerUser)+" each", total, u.Short)
		rate := total / in.EventWindow.Seconds()
		r.add("event rate", fmt.Sprintf("%s %s ÷ %s s (%s)", units.Number(total), u.Short, units.Number(in.EventWindow.Seconds()), units.DurationLiteral(in.EventWindow)), rate, u.PerSecond())
		return rate, nil
	case in.RPS > 0:
		r.add("base rate", "given", in.RPS, u.PerSecond())
		return in.RPS, nil
	case in.Users > 0:
		rate := in.Users / (in.ResponseTime + in.ThinkTime).Seconds()
		r.add("rate of the users", fmt.Sprintf("%s ÷ %s — Little's law X = N/(R+Z)",
			units.Quantity(in.Users, "user", "users"), cycle(in)), rate, u.PerSecond())
		return rate, nil
	}
	return 0, fmt.Errorf("estimate: no load given: give daily users and visits, requests per day,\n  an event, a rate or concurrent users")
}

// daily computes the peak rate from daily traffic.
func (r *Result) daily() float64 {
	in, u := r.Input, r.Input.Unit.Or()
	requests := in.RequestsPerDay
	if requests == 0 {
		perVisit := in.RequestsPerVisit
		if perVisit == 0 {
			perVisit = 1
		}
		requests = in.DAU * in.VisitsPerUser * perVisit
		formula := units.Quantity(in.DAU, "user", "users") + " × " + units.Quantity(in.VisitsPerUser, "visit", "visits")
		if perVisit != 1 {
			formula += " × " + u.Quantity(perVisit) + " per visit"
		}
		r.add(u.Many+" per day", formula, requests, u.Short+"/day")
	} else {
		r.add(u.Many+" per day", "given", requests, u.Short+"/day")
	}
	r.RequestsPerDay = requests
	r.AverageRPS = requests / secondsPerDay
	r.add("average rate", fmt.Sprintf("%s %s ÷ 86,400 s", units.Number(requests), u.Short), r.AverageRPS, u.PerSecond())
	switch {
	case in.PeakHourShare > 0:
		r.PeakRPS = requests * in.PeakHourShare / secondsPerHour
		r.add("peak rate", fmt.Sprintf("%s %s × %s in the busiest hour ÷ 3,600 s", units.Number(requests), u.Short, units.Share(in.PeakHourShare)), r.PeakRPS, u.PerSecond())
	case in.PeakFactor > 0:
		r.PeakRPS = r.AverageRPS * in.PeakFactor
		r.add("peak rate", fmt.Sprintf("%s × peak factor %s", u.Rate(r.AverageRPS), units.Number(in.PeakFactor)), r.PeakRPS, u.PerSecond())
	default:
		r.PeakRPS = r.AverageRPS
		r.Notes = append(r.Notes, "no peak factor or peak-hour share given: the peak is taken as the average, "+
			"which real traffic rarely is (a peak of 2–3 × the average is common)")
	}
	return r.PeakRPS
}

// target applies the headroom and rounds up to a planning figure.
func (r *Result) target() {
	h, u := r.Input.Headroom, r.Input.Unit.Or()
	if h == 0 {
		h = 1
	}
	with := r.BaseRPS * h
	if h != 1 {
		r.add("with headroom", fmt.Sprintf("%s × %s", u.Rate(r.BaseRPS), units.Number(h)), with, u.PerSecond())
	}
	r.NeededRPS = with
	r.TargetRPS = CeilSignificant(with, 2)
	formula := "rounded up to 2 significant figures"
	if r.TargetRPS == with {
		formula = "already a round figure"
	}
	r.add("target rate", formula, r.TargetRPS, u.PerSecond())
}

// littlesLaw computes the virtual users that produce the target rate.
func (r *Result) littlesLaw() {
	in := r.Input
	rz := in.ResponseTime + in.ThinkTime
	if rz <= 0 {
		return
	}
	if in.Users > 0 { // the users given are the closed model's VUs (with headroom), not a rounded rate's
		h := in.Headroom
		if h == 0 {
			h = 1
		}
		r.VUs = ceilCount(in.Users * h)
		formula := "the concurrent users given"
		if h != 1 {
			formula = fmt.Sprintf("%s × %s", units.Quantity(in.Users, "user", "users"), units.Number(h))
		}
		r.add("virtual users", formula, float64(r.VUs), units.Plural(int64(r.VUs), "VU", "VUs"))
		return
	}
	r.VUs = ceilCount(r.TargetRPS * rz.Seconds())
	r.add("virtual users", fmt.Sprintf("%s × %s — Little's law N = X·(R+Z), rounded up",
		in.Unit.Rate(r.TargetRPS), cycle(in)), float64(r.VUs), units.Plural(int64(r.VUs), "VU", "VUs"))
}

// capacity computes the instances and nodes the target needs.
func (r *Result) capacity() {
	in, u := r.Input, r.Input.Unit.Or()
	if in.PerInstance <= 0 {
		return
	}
	per := u.Rate(in.PerInstance) + " per instance"
	if in.PerInstanceAtLeast {
		per = "at least " + per
	}
	if in.PerInstanceFrom != "" {
		per += " (" + in.PerInstanceFrom + ")"
	}
	// The instances serve the rate asked, not the test's rounded-up one:
	// 116 req/s at 19.4 per instance is 5.98 → 6 instances, where 120 would say 7.
	need := r.NeededRPS / in.PerInstance
	r.Instances = ceilCount(need)
	// One instance sustaining at least the target is conclusive; more are
	// an upper bound when its capacity is only known from below.
	r.AtMost = in.PerInstanceAtLeast && r.Instances > 1
	r.add("instances"+r.bound(), fmt.Sprintf("%s ÷ %s = %s, rounded up", u.Rate(r.NeededRPS), per, quotient(need, r.Instances)), float64(r.Instances), units.Plural(int64(r.Instances), "instance", "instances"))
	if r.AtMost {
		r.Notes = append(r.Notes, r.floorNote())
	}
	if n := r.marginNote(need); n != "" {
		r.Notes = append(r.Notes, n)
	}
	if in.InstancesPerNode > 0 {
		r.Nodes = ceilCount(float64(r.Instances) / in.InstancesPerNode)
		r.add("nodes"+r.bound(), fmt.Sprintf("%s ÷ %s per node, rounded up", units.CountOf(int64(r.Instances), "instance", "instances"), units.Number(in.InstancesPerNode)),
			float64(r.Nodes), units.Plural(int64(r.Nodes), "node", "nodes"))
	}
}

// fullAtPeak is the share of the instances' measured capacity the peak may
// use before the plan says it leaves no margin: an instance that runs at its
// limit has none for a lost replica, a deploy or a slower neighbour.
const fullAtPeak = 0.9

// marginHeadroom is the headroom the margin note suggests: the peak at about
// three quarters of what the instances sustain.
const marginHeadroom = 1.3

// marginNote says, when no headroom was asked for and the peak uses more
// than fullAtPeak of what the instances sustain (need of them), that the
// plan runs them at their limit, and what --headroom would plan instead.
func (r *Result) marginNote(need float64) string {
	in := r.Input
	if r.AtMost || r.Instances == 0 || in.Headroom > 1 || need/float64(r.Instances) <= fullAtPeak {
		return ""
	}
	more := ceilCount(need * marginHeadroom)
	return fmt.Sprintf("at the peak each of the %s serves %s of the per-instance rate: no margin for a replica lost, a deploy "+
		"or a slower neighbour; --headroom %s plans %s", units.CountOf(int64(r.Instances), "instance", "instances"),
		units.Percent(need/float64(r.Instances)), units.Number(marginHeadroom), units.CountOf(int64(more), "instance", "instances"))
}

// floorNote says why the per-instance figure is only a floor and what the
// instances planned on it are.
func (r *Result) floorNote() string {
	in, u := r.Input, r.Input.Unit.Or()
	n := units.CountOf(int64(r.Instances), "instance", "instances")
	if in.PerInstanceCut != "" {
		return fmt.Sprintf("one instance sustained at least %s, a floor because the capacity search was cut short before "+
			"any step failed its SLO (%s), not because the instance has no limit: %s are enough if the service scales "+
			"out evenly, and fewer may do. Run `loadlens capacity` again where it can finish, then plan again", u.Rate(in.PerInstance), in.PerInstanceCut, n)
	}
	return fmt.Sprintf("one instance sustained at least %s but was never pushed to its limit, so its capacity "+
		"is unknown: %s are enough if the service scales out evenly, and fewer may do. Find the rate one instance "+
		"sustains with `loadlens capacity`, then plan again", u.Rate(in.PerInstance), n)
}

// bound is the words a step's label takes when its figure is an upper bound.
func (r *Result) bound() string {
	if r.AtMost {
		return ", at most"
	}
	return ""
}

// cost prices the instances and nodes for one day.
func (r *Result) cost() error {
	in := r.Input
	if in.InstancePrice.Amount == 0 && in.NodePrice.Amount == 0 {
		return nil
	}
	cur, err := currency(in.InstancePrice, in.NodePrice)
	if err != nil {
		return err
	}
	r.Currency = cur
	if in.InstancePrice.Amount > 0 {
		c := float64(r.Instances) * in.InstancePrice.PerDay()
		r.add("instance cost"+r.bound(), units.CountOf(int64(r.Instances), "instance", "instances")+" × "+in.InstancePrice.DayFormula(), c, PerDay(cur))
		r.CostPerDay += c
	}
	if in.NodePrice.Amount > 0 {
		c := float64(r.Nodes) * in.NodePrice.PerDay()
		r.add("node cost"+r.bound(), units.CountOf(int64(r.Nodes), "node", "nodes")+" × "+in.NodePrice.DayFormula(), c, PerDay(cur))
		r.CostPerDay += c
	}
	if in.InstancePrice.Amount > 0 && in.NodePrice.Amount > 0 {
		r.add("cost per day"+r.bound(), "instances + nodes", r.CostPerDay, PerDay(cur))
	}
	return nil
}

// currency returns the one currency of the prices given.
func currency(ps ...Price) (string, error) {
	cur := ""
	for _, p := range ps {
		if p.Amount == 0 {
			continue
		}
		if cur != "" && p.Currency != cur {
			return "", fmt.Errorf("estimate: prices in %q and %q cannot be added: give both in one currency", cur, p.Currency)
		}
		cur = p.Currency
	}
	return cur, nil
}

// cycle writes R+Z of Little's law, leaving out a zero term.
func cycle(in Input) string {
	switch {
	case in.ThinkTime == 0:
		return units.DurationLiteral(in.ResponseTime) + " response"
	case in.ResponseTime == 0:
		return units.DurationLiteral(in.ThinkTime) + " think"
	}
	return "(" + units.DurationLiteral(in.ResponseTime) + " response + " + units.DurationLiteral(in.ThinkTime) + " think)"
}

// PerDay is the unit of a daily cost in currency cur: "USD/day", or "per day".
func PerDay(cur string) string {
	if cur == "" {
		return "per day"
	}
	return cur + "/day"
}

// quotient writes the instances' quotient so that rounding it up visibly
// gives n: 10.004 reads "10.004", not "10", when it plans 11.
func quotient(q float64, n int) string {
	s := units.Number(q)
	if f, err := strconv.ParseFloat(strings.ReplaceAll(s, ",", ""), 64); err == nil && ceilCount(f) != n {
		s = strings.TrimRight(strings.TrimRight(strconv.FormatFloat(q, 'f', 6, 64), "0"), ".")
	}
	return s
}

// ceilCount rounds a count up, ignoring float noise below one part in 10⁹
// so that 70 × 1.5 is 105, not 106.
func ceilCount(x float64) int {
	return int(math.Ceil(x - 1e-9*math.Max(1, math.Abs(x))))
}
