// Command runstats prints what the peer benchmark needs from a loadlens run.db and
// the summary does not hold: the whole run's p99.9, the per-second p99 of second 0
// against seconds 1–9 (the start-up test), the largest VU pool, and the dropped
// iterations. One "key<TAB>value" line per figure; latencies in milliseconds.
//
//	go run ./bench/runstats results/<run>/run.db
package main

import (
	"fmt"
	"io"
	"os"
	"sort"
	"time"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/store"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: runstats <run.db>")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "runstats:", err)
		os.Exit(1)
	}
}

// run writes the figures of the run.db at path to w.
func run(path string, w io.Writer) error {
	r, err := store.Open(path)
	if err != nil {
		return err
	}
	defer func() { _ = r.Close() }()
	whole := metrics.NewHist()
	var perSecond []float64 // p99 of seconds 1–9
	var s0 float64 = -1
	var vusMax, dropped, failed, reqs int64
	err = r.Snapshots(func(s *metrics.Snapshot) error {
		sec := metrics.NewHist()
		for i := range s.Endpoints {
			e := &s.Endpoints[i]
			reqs += e.Requests
			for _, f := range e.Failures {
				failed += f
			}
			if e.Duration != nil {
				sec.Merge(e.Duration)
			}
		}
		for i := range s.Scenarios {
			dropped += s.Scenarios[i].Dropped
			vusMax = max(vusMax, s.Scenarios[i].VUsMax)
		}
		whole.Merge(sec)
		if sec.Count() == 0 {
			return nil
		}
		p99 := ms(sec.Quantile(99))
		switch {
		case s.Second == 0:
			s0 = p99
		case s.Second <= 9:
			perSecond = append(perSecond, p99)
		}
		return nil
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "rdb_reqs\t%d\n", reqs)
	fmt.Fprintf(w, "rdb_failed\t%d\n", failed)
	fmt.Fprintf(w, "rdb_dropped\t%d\n", dropped)
	fmt.Fprintf(w, "vus_max\t%d\n", vusMax)
	fmt.Fprintf(w, "p99_ms_rdb\t%.3f\n", ms(whole.Quantile(99)))
	fmt.Fprintf(w, "p999_ms\t%.3f\n", ms(whole.Quantile(99.9)))
	if s0 >= 0 {
		fmt.Fprintf(w, "s0_p99_ms\t%.3f\n", s0)
	}
	// The generator's own stall per second (loadlens_sched_latency_p99_s), in builds that
	// record it: second 0's and the worst of the run.
	set, err := r.Series()
	if err != nil {
		return err
	}
	for _, ser := range set {
		if ser.Name != stallSeries || len(ser.Points) == 0 {
			continue
		}
		worst := 0.0
		for _, p := range ser.Points {
			worst = max(worst, p.Value)
			if p.Sec == 0 {
				fmt.Fprintf(w, "stall_s0_p99_ms\t%.3f\n", p.Value*1000)
			}
		}
		fmt.Fprintf(w, "stall_p99_max_ms\t%.3f\n", worst*1000)
	}
	if len(perSecond) > 0 {
		sort.Float64s(perSecond)
		fmt.Fprintf(w, "s1_9_p99_med_ms\t%.3f\n", perSecond[len(perSecond)/2])
		fmt.Fprintf(w, "s1_9_p99_max_ms\t%.3f\n", perSecond[len(perSecond)-1])
	}
	return nil
}

// stallSeries is the per-second series of how long loadlens's goroutines waited runnable.
const stallSeries = "loadlens_sched_latency_p99_s"

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
