package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// gcPremise is the share of wall time a gc case's JVM must spend paused for
// GC over the load's hold, by its own jvm_gc_pause_seconds_sum: a tenth of
// every second stopped is a pressure any request feels, twice the least
// share loadlens's rule looks at (5 %), so the label does not borrow the
// rule's threshold.
const gcPremise = 0.10

// Premise is what the harness measured of a case's fault while loadlens
// ran, apart from loadlens: a run whose fault did not happen says nothing
// of the rule that should name it, right or wrong.
type Premise struct {
	What     string  `json:"what"`
	Want     float64 `json:"want"`                // the least value for the fault to count as present
	Measured float64 `json:"measured"`            // NaN-free: 0 when nothing could be measured
	Samples  int     `json:"samples"`             // scrapes inside the window
	Bracket  bool    `json:"bracketed,omitempty"` // the JVM answered too few scrapes inside the hold: the window reaches to the scrapes around it
	WindowS  float64 `json:"window_s"`            // seconds between the first and the last scrape used
	Met      bool    `json:"met"`
	Why      string  `json:"why,omitempty"` // why it is not met
}

// pauseSample is one scrape of a JVM's total GC pause time.
type pauseSample struct {
	at    time.Time
	pause float64 // seconds, every collector and cause summed
}

// gcMeter scrapes a JVM's Actuator each second while a run lasts.
type gcMeter struct {
	url      string
	mu       sync.Mutex
	samples  []pauseSample
	errs     int
	answered chan struct{} // a scrape answered
}

// watchGC starts scraping url until ctx ends; the returned func stops it
// once a scrape after the given time has answered (a JVM that the storm
// kept from answering during the load answers once it drains), or grace
// later, and returns the meter. At most one scrape is in flight (a
// GC-bound JVM answers late, and a late answer is still a counter reading).
func watchGC(ctx context.Context, url string, max time.Duration) func(after time.Time, grace time.Duration) *gcMeter {
	m := &gcMeter{url: url, answered: make(chan struct{}, 1)}
	ctx, cancel := context.WithTimeout(ctx, max)
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for ctx.Err() == nil {
			m.scrape(ctx)
			select {
			case <-ctx.Done():
			case <-tick.C:
			}
		}
	}()
	return func(after time.Time, grace time.Duration) *gcMeter {
		deadline := time.NewTimer(grace)
		defer deadline.Stop()
		for !m.answeredAfter(after) { // bounded by grace: each answer signals once
			select {
			case <-m.answered:
			case <-deadline.C:
				after = time.Time{}
			case <-done:
				after = time.Time{}
			}
			if after.IsZero() {
				break
			}
		}
		cancel()
		<-done
		return m
	}
}

// answeredAfter reports whether a scrape taken after t answered.
func (m *gcMeter) answeredAfter(t time.Time) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return t.IsZero() || (len(m.samples) > 0 && m.samples[len(m.samples)-1].at.After(t))
}

func (m *gcMeter) scrape(ctx context.Context) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	at := time.Now()
	v, err := fetchPause(ctx, m.url)
	m.mu.Lock()
	defer m.mu.Unlock()
	if err != nil {
		m.errs++
		return
	}
	m.samples = append(m.samples, pauseSample{at: at, pause: v})
	select {
	case m.answered <- struct{}{}:
	default:
	}
}

// fetchPause reads the sum of jvm_gc_pause_seconds_sum from a Prometheus
// exposition.
func fetchPause(ctx context.Context, url string) (float64, error) {
	req, err := http.NewRequestWithContext(ctx, "GET", url, nil)
	if err != nil {
		return 0, err
	}
	r, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err
	}
	defer r.Body.Close()
	if r.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("%s: %s", url, r.Status)
	}
	return sumPause(r.Body)
}

// sumPause sums every jvm_gc_pause_seconds_sum sample; none is an error
// (not a JVM with Micrometer's GC metrics).
func sumPause(rd io.Reader) (float64, error) {
	sc := bufio.NewScanner(rd)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	sum, n := 0.0, 0
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, "jvm_gc_pause_seconds_sum") {
			continue
		}
		_, value, ok := splitSample(line)
		if !ok {
			return 0, fmt.Errorf("bad sample %q", line)
		}
		v, err := strconv.ParseFloat(value, 64)
		if err != nil {
			return 0, fmt.Errorf("bad sample %q", line)
		}
		sum, n = sum+v, n+1
	}
	if err := sc.Err(); err != nil {
		return 0, err
	}
	if n == 0 {
		return 0, fmt.Errorf("no jvm_gc_pause_seconds_sum")
	}
	return sum, nil
}

// Share judges the GC premise over [from, to]: the pause time between the
// first and the last scrape inside it over the wall time between them. A
// JVM in back-to-back full collections answers no scrape for the whole
// hold (a 5 s timeout): then the last scrape before it and the first after
// it bracket the hold, a window of lighter seconds around it (the ramp, the
// drain), so the share read is no more than the hold's.
func (m *gcMeter) Share(from, to time.Time, want float64) Premise {
	m.mu.Lock()
	defer m.mu.Unlock()
	p := Premise{What: "share of wall time the JVM paused for GC over the load's hold (its own jvm_gc_pause_seconds_sum)", Want: want}
	var in []pauseSample
	var before, after *pauseSample
	for i, s := range m.samples {
		switch {
		case s.at.Before(from):
			before = &m.samples[i]
		case s.at.After(to):
			if after == nil {
				after = &m.samples[i]
			}
		default:
			in = append(in, s)
		}
	}
	p.Samples = len(in)
	if len(in) < 2 && before != nil && after != nil {
		in = append(append([]pauseSample{*before}, in...), *after)
		p.Bracket = true
	}
	if len(in) < 2 {
		p.Why = fmt.Sprintf("not measured: %d scrapes of the JVM answered inside the hold (%d failed)", len(in), m.errs)
		return p
	}
	first, last := in[0], in[len(in)-1]
	wall := last.at.Sub(first.at).Seconds()
	p.WindowS = wall
	p.Measured = (last.pause - first.pause) / wall
	p.Met = p.Measured >= want
	if !p.Met {
		p.Why = fmt.Sprintf("the JVM paused for GC %.1f %% of the hold's wall time, below the %.0f %% that makes the fault", 100*p.Measured, 100*want)
	}
	return p
}
