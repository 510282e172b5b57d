package plan

import (
	"math"
	"strconv"
	"time"

	"github.com/loadlens/loadlens/internal/yamldoc"
)

// MaxRunLength bounds how long one scenario may last: its start_time, its
// load (the stages, duration or max_duration) and its graceful stops
// added. The engine adds them to clock readings, and Go's time.Duration
// wraps to negative past about 292 years, which ran a test of two
// 2,000,000h stages as one that ended before it began. 1000h (about 41
// days) is six weeks of soak test, more than any run needs.
const MaxRunLength = 1000 * time.Hour

// maxRunLengthText is MaxRunLength as an error message says it.
const maxRunLengthText = "1000h (about 41 days)"

// lengthSum adds up one scenario's durations, in the order the engine
// spends them, and reports the first that takes the sum past MaxRunLength.
type lengthSum struct {
	total time.Duration // the durations added so far, never past MaxRunLength
	over  bool          // one was refused: the others are not reported again
}

// add adds d, the value of n (never negative: the parser refuses those),
// and reports an error at n when the sum would pass MaxRunLength; the
// comparison is written so that it cannot overflow.
func (p *parser) addLength(sum *lengthSum, n yamldoc.Node, d time.Duration) bool {
	if sum.over {
		return false
	}
	if d > MaxRunLength-sum.total {
		sum.over = true
		hours := float64(sum.total)/float64(time.Hour) + float64(d)/float64(time.Hour)
		p.Errs.Add(n.Pos, n.Path, "the scenario would last %sh (start_time + load + graceful stops): at most %s",
			strconv.FormatFloat(math.Round(hours*100)/100, 'f', -1, 64), maxRunLengthText)
		return false
	}
	sum.total += d
	return true
}

// cappedAdd adds two durations that are not negative, stopping at the
// largest time.Duration instead of wrapping: for estimates over a flow's
// timeouts and think times, which are not bounded by MaxRunLength.
func cappedAdd(a, b time.Duration) time.Duration {
	if b > math.MaxInt64-a {
		return math.MaxInt64
	}
	return a + b
}

// checkLength refuses a scenario that would last more than MaxRunLength,
// at the field that takes it past: after its load (whose parser added the
// stages, duration or max_duration to p.length), start_time,
// graceful_ramp_down and graceful_stop, as the engine adds them up.
func (p *parser) checkLength(o *yamldoc.Object, s *Scenario) {
	for _, f := range []struct {
		key string
		d   time.Duration
	}{{"start_time", s.StartTime}, {"graceful_ramp_down", s.Load.GracefulRampDown}, {"graceful_stop", s.GracefulStop}} {
		if n, ok := o.Get(f.key); ok && !p.addLength(&p.length, n, f.d) {
			return
		}
	}
}
