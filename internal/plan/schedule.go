package plan

import (
	"math"
	"time"
)

// Arrivals yields the intended start times of an open-model scenario, by
// arithmetic on its rate: never from a ticker, which would drop ticks when
// the process is late. The cumulative number of arrivals by time t is the
// integral N(t) of the piecewise-linear rate, and arrival i starts at the t
// where N(t) = i. For a constant rate λ that is t = i/λ: at 200/s, arrival
// 3 starts at 15 ms.
type Arrivals struct {
	stages  []Stage
	seg     Segment
	rate0   float64       // rate at the start of the current stage (per second)
	stage   int           // index of the current stage
	begin   time.Duration // offset of the current stage's start
	before  float64       // arrivals due before the current stage
	next    int64         // index of the next arrival of the whole test
	current int64         // index of the arrival last returned
}

// NewArrivals returns the arrival schedule of an arrival-rate load, limited
// to the given segment.
func NewArrivals(l *Load, seg Segment) *Arrivals {
	return &Arrivals{stages: l.Stages, seg: seg.norm(), rate0: l.StartRate}
}

// Next returns the offset from the scenario's start of the segment's next
// arrival, or false when the stages are over.
func (a *Arrivals) Next() (time.Duration, bool) {
	for {
		at, ok := a.nextOfWhole()
		if !ok {
			return 0, false
		}
		if a.seg.HasArrival(a.current) {
			return at, true
		}
	}
}

func (a *Arrivals) nextOfWhole() (time.Duration, bool) {
	if a.next == math.MaxInt64 { // SkipUntil ran past what an index can count
		return 0, false
	}
	n := float64(a.next)
	for a.stage < len(a.stages) {
		st := a.stages[a.stage]
		d := st.Duration.Seconds()
		r0, r1 := a.rate0, st.Target
		total := (r0 + r1) / 2 * d
		if n < a.before+total {
			u := solveArrival(r0, r1, d, n-a.before)
			if u < d {
				a.current = a.next
				a.next++
				return a.begin + time.Duration(u*float64(time.Second)), true
			}
		}
		a.before += total
		a.begin += st.Duration
		a.rate0 = r1
		a.stage++
	}
	return 0, false
}

// SkipUntil moves the schedule past every arrival due before offset t and
// returns how many of the segment's arrivals it passed over, by arithmetic
// on the rate: a scheduler that fell far behind (a rate of 1e18/s, or no
// VU free) counts what it missed in one step instead of one by one. Next
// then returns the first arrival due at or after t.
func (a *Arrivals) SkipUntil(t time.Duration) int64 {
	for a.stage < len(a.stages) && a.begin+a.stages[a.stage].Duration <= t {
		st := a.stages[a.stage]
		a.before += (a.rate0 + st.Target) / 2 * st.Duration.Seconds()
		a.begin += st.Duration
		a.rate0 = st.Target
		a.stage++
	}
	due := a.before // arrivals of the whole test due before t
	if a.stage < len(a.stages) && t > a.begin {
		st := a.stages[a.stage]
		u, d := (t - a.begin).Seconds(), st.Duration.Seconds()
		due += a.rate0*u + (st.Target-a.rate0)*u*u/(2*d)
	}
	first := int64(math.MaxInt64)
	if c := math.Ceil(due); c < math.MaxInt64 {
		first = int64(c)
	}
	if first <= a.next {
		return 0
	}
	n := a.seg.ArrivalsIn(a.next, first)
	a.next = first
	return n
}

// solveArrival returns u in [0, d] with r0·u + (r1−r0)·u²/(2d) = k, the time
// into a stage at which its k-th arrival is due. The root is written as
// 2k / (r0 + √(r0² + 2(r1−r0)k/d)), which stays accurate when r1 ≈ r0.
func solveArrival(r0, r1, d, k float64) float64 {
	if k <= 0 {
		return 0
	}
	disc := r0*r0 + 2*(r1-r0)*k/d
	if disc < 0 {
		return d
	}
	den := r0 + math.Sqrt(disc)
	if den <= 0 {
		return d
	}
	return 2 * k / den
}

// RateAt returns the arrival rate per second at offset t of an arrival-rate load.
func RateAt(l *Load, t time.Duration) float64 {
	return stageValue(l.StartRate, l.Stages, t)
}

// PeakRate returns the highest rate per second an arrival-rate load reaches.
func PeakRate(l *Load) float64 {
	peak := l.StartRate
	for _, s := range l.Stages {
		peak = math.Max(peak, s.Target)
	}
	return peak
}

// stageValue interpolates linearly between stage targets.
func stageValue(start float64, stages []Stage, t time.Duration) float64 {
	v := start
	for _, s := range stages {
		if t < s.Duration {
			return v + (s.Target-v)*float64(t)/float64(s.Duration)
		}
		t -= s.Duration
		v = s.Target
	}
	return v
}

// VUsAt returns a vus load's target VU count at offset t: the linear ramp
// rounded down while rising and up while falling, so a stage starts at its
// previous target and ends exactly at its own. After the last stage it is 0.
func VUsAt(l *Load, t time.Duration) int {
	v := float64(l.StartVUs)
	for _, s := range l.Stages {
		if t < s.Duration {
			x := v + (s.Target-v)*float64(t)/float64(s.Duration)
			if s.Target < v {
				return int(math.Ceil(x - 1e-9))
			}
			return int(math.Floor(x + 1e-9))
		}
		t -= s.Duration
		v = s.Target
	}
	return 0
}

// NextVUChange returns the first offset after t at which VUsAt may differ
// from VUsAt(t), or false when nothing changes after t.
func NextVUChange(l *Load, t time.Duration) (time.Duration, bool) {
	v := float64(l.StartVUs)
	var begin time.Duration
	for _, s := range l.Stages {
		end := begin + s.Duration
		if t < end {
			cur := float64(VUsAt(l, t))
			var goal float64
			switch {
			case s.Target > v:
				goal = cur + 1
			case s.Target < v:
				goal = cur - 1
			default:
				return end, true
			}
			// the time within the stage when the ramp reaches goal
			u := (goal - v) / (s.Target - v) * float64(s.Duration)
			at := begin + time.Duration(math.Ceil(u))
			if at <= t {
				at = t + 1
			}
			if at > end {
				at = end
			}
			return at, true
		}
		begin = end
		v = s.Target
	}
	return 0, false
}
