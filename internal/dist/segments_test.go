package dist

import (
	"fmt"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/plan"
)

// TestSegmentsAddUpToTheWhole checks the split the coordinator makes: for
// every agent count, the segments' arrivals in every second, VUs at every
// instant, iterations and unique data rows add up to the whole test's,
// exactly.
func TestSegmentsAddUpToTheWhole(t *testing.T) {
	loads := []plan.Load{
		{Model: plan.ArrivalRate, StartRate: 3, Stages: []plan.Stage{{Duration: 7 * time.Second, Target: 977}, {Duration: 3 * time.Second, Target: 977}, {Duration: 2 * time.Second, Target: 1}}},
		{Model: plan.ArrivalRate, StartRate: 0.5, Stages: []plan.Stage{{Duration: 5 * time.Second, Target: 0.5}}},
	}
	perSecond := func(l *plan.Load, seg plan.Segment) map[int]int64 {
		out := map[int]int64{}
		a := plan.NewArrivals(l, seg)
		for at, ok := a.Next(); ok; at, ok = a.Next() {
			out[int(at/time.Second)]++
		}
		return out
	}
	for n := 1; n <= 7; n++ {
		segs := segments(n)
		for li := range loads {
			l := &loads[li]
			whole := perSecond(l, plan.Whole)
			sum := map[int]int64{}
			for _, s := range segs {
				for sec, c := range perSecond(l, s) {
					sum[sec] += c
				}
			}
			if fmt.Sprint(sum) != fmt.Sprint(whole) {
				t.Errorf("%d agents, load %d: arrivals per second of the segments %v, of the whole %v", n, li, sum, whole)
			}
		}
		vus := &plan.Load{Model: plan.VUs, StartVUs: 1, Stages: []plan.Stage{{Duration: 10 * time.Second, Target: 103}, {Duration: 5 * time.Second, Target: 2}}}
		for at := time.Duration(0); at < 15*time.Second; at += 37 * time.Millisecond {
			want, got := plan.VUsAt(vus, at), 0
			for _, s := range segs {
				got += s.Share(plan.VUsAt(vus, at))
			}
			if got != want {
				t.Fatalf("%d agents at %s: the segments run %d VUs, the whole %d", n, at, got, want)
			}
		}
		for _, rows := range []int{1, 2, 5, 99, 1000} {
			next := 0
			for _, s := range segs {
				lo, hi := s.Range(rows)
				if lo != next || hi < lo {
					t.Fatalf("%d agents, %d rows: segment %s has rows [%d, %d), want them to start at %d", n, rows, s, lo, hi, next)
				}
				next = hi
			}
			if next != rows {
				t.Fatalf("%d agents, %d rows: the segments cover %d", n, rows, next)
			}
		}
	}
}
