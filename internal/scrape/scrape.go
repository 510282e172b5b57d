// Package scrape reads the target's Prometheus endpoints during a run:
// each target on its own interval, keeping its preset's series and the
// chosen ones, counters turned into per-second rates, every point on the
// run's clock. A target that fails is recorded and reported, and never
// stops or slows the run.
package scrape

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/series"
)

// Target is one endpoint to scrape, as the test file configures it.
type Target = plan.ObserveTarget

// Sink receives what scraping produces. Run never calls it from two
// goroutines at once, but a slow sink delays the scrapes (never the load),
// so it should hand the data on rather than do heavy work.
type Sink interface {
	// Scraped receives one scrape of one target: every kept series, each
	// holding one point at the second of the scrape. The sink may keep the
	// series; their Labels slices are shared between calls and read-only.
	Scraped(target string, set series.Set)
	// ScrapeFailed receives a target's failure record when the target
	// starts failing, when it recovers, and at the end of the run if it
	// changed since. Every call about a target carries the same record,
	// updated, so a message about it should be shown once.
	ScrapeFailed(f Failure)
	// Limited receives, once per target, what the target exposed beyond
	// the bounds (MaxSamples, MaxTargetSeries, MaxRunSeries, the lengths of
	// names and labels) a run keeps: what was dropped, to be said once.
	Limited(o Overflow)
}

// The kinds of scrape failure.
const (
	KindRefused    = "refused"     // nothing listens at the address
	KindTimeout    = "timeout"     // no complete response within the scrape timeout
	KindHTTPStatus = "http_status" // a response other than 200
	KindParse      = "parse"       // the body is not Prometheus text exposition
	KindOther      = "other"       // DNS, TLS, resets, an oversized body, ...
)

// Failure is what went wrong scraping one target during the run.
type Failure struct {
	Target       string
	URL          string
	Kind         string // of the first error: KindRefused, KindTimeout, ...
	First        string // the first error's message
	FirstSec     int    // the second of the first failed scrape
	LastSec      int    // the second of the latest failed scrape
	Failures     int    // failed scrapes so far
	RecoveredSec int    // the second of the first good scrape after LastSec; -1 while failing
}

// Scrape bounds.
const (
	// Timeout is every scrape's timeout, whatever the interval: a saturated
	// JVM answers its scrape after the requests queued before it (at 1 s, a
	// timeout of 90 % of the interval kept 32 of 56 seconds), so a slow
	// scrape finishes and the slots it overran are skipped.
	Timeout     = 10 * time.Second
	MaxBodySize = 64 << 20 // a larger exposition is a failure, not a memory spike
)

// Scraper scrapes a run's targets.
type Scraper struct {
	targets []*target
	start   time.Time
	sink    Sink
	client  *http.Client
	lim     *bounds          // what the targets may add to the run; tests lower it
	timeout time.Duration    // every scrape's: Timeout; tests shorten it
	now     func() time.Time // the clock of alignment and rates; tests replace it
	sinkMu  sync.Mutex       // one sink call at a time
}

// New prepares the scraping of targets for a run that started at start.
// It fails on a preset it does not know.
func New(targets []Target, start time.Time, sink Sink) (*Scraper, error) {
	s := &Scraper{start: start, sink: sink, client: newClient(), lim: newBounds(), timeout: Timeout, now: time.Now}
	for i := range targets {
		t, err := newTarget(&targets[i], s.lim)
		if err != nil {
			return nil, fmt.Errorf("observe target %s: %w", targets[i].Name, err)
		}
		s.targets = append(s.targets, t)
	}
	return s, nil
}

// Run scrapes every target at its interval, concurrently, until ctx is
// done; then it reports the failure records that changed and returns nil.
func (s *Scraper) Run(ctx context.Context) error {
	var wg sync.WaitGroup
	for _, t := range s.targets {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.loop(ctx, t)
		}()
	}
	wg.Wait()
	s.client.CloseIdleConnections()
	return nil
}

// loop scrapes one target on its schedule: slots every interval from now
// on. A scrape that overruns its slot (a slow target, up to Timeout) is
// followed at once by the next, and the slots it missed are dropped: the
// target is never scraped twice at once or in a burst, and a target that
// answers in 1.5 s at a 1 s interval gives a point every 1.5 s, not 2 s.
func (s *Scraper) loop(ctx context.Context, t *target) {
	timer := time.NewTimer(0)
	defer timer.Stop()
	next := time.Now()
	for {
		select {
		case <-ctx.Done():
			s.finish(t)
			return
		case <-timer.C:
		}
		s.scrapeOnce(ctx, t)
		now := time.Now()
		next = next.Add(t.cfg.Interval)
		if !next.After(now) {
			next = now
		}
		timer.Reset(next.Sub(now))
	}
}

// second returns the run's second at time at: floor((at-start)/1s).
func (s *Scraper) second(at time.Time) int {
	d := at.Sub(s.start)
	sec := int(d / time.Second)
	if d < 0 && d%time.Second != 0 {
		sec--
	}
	return sec
}

// newClient returns the scrapes' HTTP client: no proxy from the
// environment (targets are addressed directly, as Prometheus does) and a
// couple of kept-alive connections per target.
func newClient() *http.Client {
	return &http.Client{Transport: &http.Transport{
		DialContext:         (&net.Dialer{Timeout: Timeout, KeepAlive: 30 * time.Second}).DialContext,
		MaxIdleConnsPerHost: 2,
		IdleConnTimeout:     90 * time.Second,
		TLSHandshakeTimeout: Timeout,
		ForceAttemptHTTP2:   true,
	}}
}

// deliver hands a scrape's series to the sink.
func (s *Scraper) deliver(t *target, set series.Set) {
	s.sinkMu.Lock()
	defer s.sinkMu.Unlock()
	s.sink.Scraped(t.cfg.Name, set)
}

// limited hands the sink what a target's scrape left out.
func (s *Scraper) limited(o Overflow) {
	s.sinkMu.Lock()
	defer s.sinkMu.Unlock()
	s.sink.Limited(o)
}

// report hands a target's failure record to the sink.
func (s *Scraper) report(f Failure) {
	s.sinkMu.Lock()
	defer s.sinkMu.Unlock()
	s.sink.ScrapeFailed(f)
}
