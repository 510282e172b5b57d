package output

import (
	"time"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/metrics/metricstest"
)

// testStart is the synthetic runs' start, fixed so that timestamps are known.
var testStart = time.Date(2025, 1, 2, 3, 0, 0, 0, time.UTC)

// frames returns secs seconds of metricstest's synthetic traffic over n
// endpoints as frames, and the run model the same snapshots make.
func frames(n, secs int) ([]*Frame, *metrics.Run) {
	layout := metricstest.Layout(n)
	b := newBuilder(layout, testStart)
	b.now = func() time.Time { return testStart.Add(time.Hour) } // every second is over
	run := metrics.NewRun(layout)
	var out []*Frame
	metricstest.Seconds(layout, secs, func(s *metrics.Snapshot) {
		s.Scenarios[0].VUs, s.Scenarios[0].VUsMax = 7, 9
		s.Scenarios[0].Iterations, s.Scenarios[0].Dropped = 10, int64(s.Second%2)
		if s.Second%3 == 1 { // one iteration ended by a request not sent, counted in Iterations too
			s.Scenarios[0].NotSent = 1
		}
		out = append(out, b.frame(s))
		run.Add(s)
	})
	return out, run
}
