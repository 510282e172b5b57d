package estimate

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/loadlens/loadlens/internal/units"
)

// maxFigure bounds every figure and the daily requests they multiply to:
// 1e15 requests a day is 1.2e10 a second, past any fleet of generators, and
// it keeps every product below float64's overflow.
const maxFigure = 1e15

// validate rejects inputs that are negative, contradictory or incomplete,
// naming the figure and why.
func validate(in Input) error {
	var errs []string
	bad := func(format string, args ...any) { errs = append(errs, fmt.Sprintf(format, args...)) }
	for _, f := range []struct {
		name string
		v    float64
	}{
		{"daily users", in.DAU}, {"visits per user", in.VisitsPerUser}, {"requests per visit", in.RequestsPerVisit},
		{"requests per day", in.RequestsPerDay}, {"peak factor", in.PeakFactor}, {"peak-hour share", in.PeakHourShare},
		{"event users", in.EventUsers}, {"requests per user", in.RequestsPerUser}, {"rate", in.RPS},
		{"concurrent users", in.Users}, {"headroom", in.Headroom}, {"per-instance throughput", in.PerInstance},
		{"instances per node", in.InstancesPerNode},
	} {
		if f.v < 0 || math.IsNaN(f.v) || math.IsInf(f.v, 0) {
			bad("%s is %v: it must be a finite number of 0 or more", f.name, f.v)
		} else if f.v > maxFigure {
			bad("%s is %v: more than %v, beyond any load a test could send", f.name, f.v, maxFigure)
		}
	}
	if daily := in.DAU * in.VisitsPerUser * max(in.RequestsPerVisit, 1); daily > maxFigure {
		bad("daily users × visits × requests per visit come to %v requests a day: more than %v, beyond any load a test could send", daily, maxFigure)
	}
	if in.MaxErrors < 0 || in.MaxErrors > 1 {
		bad("the error-rate threshold %v is not a ratio between 0 and 1", in.MaxErrors)
	}
	if in.ResponseTime < 0 || in.ThinkTime < 0 || in.EventWindow < 0 || in.Ramp < 0 || in.Hold < 0 || in.LatencyGoal < 0 {
		bad("durations cannot be negative")
	}
	sources := 0
	for _, given := range []bool{in.DAU > 0 || in.VisitsPerUser > 0 || in.RequestsPerDay > 0,
		in.EventUsers > 0 || in.RequestsPerUser > 0 || in.EventWindow > 0, in.RPS > 0, in.Users > 0} {
		if given {
			sources++
		}
	}
	if sources > 1 {
		bad("give one load source — daily traffic, an event, a rate or concurrent users — not %d", sources)
	}
	errs = append(errs, dailyErrors(in)...)
	if (in.EventUsers > 0 || in.RequestsPerUser > 0 || in.EventWindow > 0) &&
		(in.EventUsers == 0 || in.RequestsPerUser == 0 || in.EventWindow == 0) {
		bad("an event needs its users, the requests each sends, and its window (all above 0)")
	}
	if in.Users > 0 && in.ResponseTime+in.ThinkTime <= 0 {
		bad("concurrent users give a rate only with a response time or think time (Little's law X = N/(R+Z))")
	}
	if in.Headroom > 0 && in.Headroom < 1 {
		bad("headroom %v is below 1: it multiplies the peak, so 1.4 plans 40%% above it", in.Headroom)
	}
	if in.InstancesPerNode > 0 && in.PerInstance == 0 {
		bad("instances per node needs the per-instance throughput")
	}
	if in.InstancePrice.Amount > 0 && in.PerInstance == 0 {
		bad("an instance price needs the per-instance throughput")
	}
	if in.NodePrice.Amount > 0 && in.InstancesPerNode == 0 {
		bad("a node price needs the instances per node")
	}
	if in.InstancePrice.Amount < 0 || in.NodePrice.Amount < 0 {
		bad("prices cannot be negative")
	}
	if len(errs) > 0 {
		return errors.New("estimate: " + strings.Join(errs, "; "))
	}
	return nil
}

// dailyErrors checks the daily-traffic figures.
func dailyErrors(in Input) []string {
	var errs []string
	if (in.DAU > 0) != (in.VisitsPerUser > 0) {
		errs = append(errs, "daily users and visits per user go together")
	}
	if in.RequestsPerVisit > 0 && in.DAU == 0 {
		errs = append(errs, "requests per visit go with daily users and visits")
	}
	if in.RequestsPerDay > 0 && in.DAU > 0 {
		errs = append(errs, "give requests per day or daily users × visits, not both")
	}
	if (in.PeakFactor > 0 || in.PeakHourShare > 0) && in.DAU == 0 && in.RequestsPerDay == 0 {
		errs = append(errs, "a peak factor or peak-hour share applies to daily traffic only")
	}
	if in.PeakFactor > 0 && in.PeakHourShare > 0 {
		errs = append(errs, "give a peak factor or a peak-hour share, not both")
	}
	if in.PeakFactor > 0 && in.PeakFactor < 1 {
		errs = append(errs, fmt.Sprintf("peak factor %v is below 1: the peak cannot be below the average", in.PeakFactor))
	}
	if in.PeakHourShare > 1 {
		errs = append(errs, fmt.Sprintf("peak-hour share %v is above 100%%", in.PeakHourShare))
	}
	if in.PeakHourShare > 0 && in.PeakHourShare < 1.0/24 {
		errs = append(errs, fmt.Sprintf("peak-hour share %s is below the average hour's 4.17%%: the peak cannot be below the average", units.Share(in.PeakHourShare)))
	}
	return errs
}
