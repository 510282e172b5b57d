package scrape

import (
	"context"
	"time"

	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/series"
)

// target is one target's configuration and what its loop remembers
// between scrapes. Only its own loop goroutine touches it.
type target struct {
	cfg      *Target
	sel      *selection
	conv     *converter
	lastSec  int // the last second points were delivered at; they never go back
	fail     failState
	noted    bool // the sink was told what the bounds left out
	answered bool // a scrape has succeeded
}

// failState is a target's failure record and whether the sink has seen it.
type failState struct {
	rec     Failure
	failing bool
	dirty   bool // changed since last reported
}

// newTarget compiles a target's preset and series, for a run with bounds lim.
func newTarget(cfg *Target, lim *bounds) (*target, error) {
	sel, err := newSelection(cfg)
	if err != nil {
		return nil, err
	}
	return &target{cfg: cfg, sel: sel, conv: newConverter(cfg, lim), lastSec: -1}, nil
}

// scrapeOnce scrapes t once and hands on what it got, at the second of
// the run it got it in: a saturated target answers late (its scrape queues
// behind its requests) and its values are of when it answered, so the run's
// clock is read then, for the point's second and the counters' rates.
func (s *Scraper) scrapeOnce(ctx context.Context, t *target) {
	began := time.Now()
	body, err := fetch(ctx, s.client, t.cfg.URL, s.timeout)
	at := s.now()
	sec := s.second(at)
	var set series.Set
	if err == nil {
		set, err = t.convert(ctx, body, at, sec)
	}
	took := time.Since(began)
	if ctx.Err() != nil {
		s.cutOff(t, max(sec, 0), took)
		return
	}
	if err == nil && t.conv.over.Any() && !t.noted {
		t.noted = true // one note per target: later scrapes overflow alike
		s.limited(t.conv.over)
	}
	up := 1.0
	if err == nil {
		t.answered = true
	}
	if err != nil {
		up = 0
		s.failed(t, max(sec, 0), err)
	} else if t.fail.failing {
		s.recovered(t, max(sec, 0))
	}
	if sec < 0 || sec <= t.lastSec {
		return // before the run, or a second already delivered: the scrape only primed the rates
	}
	t.lastSec = sec
	set = append(set,
		t.conv.synthetic("up", sec, up),
		t.conv.synthetic("scrape_duration_seconds", sec, took.Seconds()))
	s.deliver(t, set)
}

// convert parses an exposition, up to the bounds' sample lines, and
// returns the series it keeps; t.conv.over says what it left out. It
// stops when ctx ends.
func (t *target) convert(ctx context.Context, body []byte, at time.Time, sec int) (series.Set, error) {
	body, exposed := cut(body, t.conv.lim.samples)
	lim := t.conv.lim
	t.conv.over = Overflow{Target: t.cfg.Name, Exposed: exposed, Read: min(exposed, lim.samples), PerTarget: lim.perTarget, PerRun: lim.perRun}
	fams, err := parse(ctx, body)
	if err != nil {
		return nil, err
	}
	return t.conv.convert(fams, t.sel, at, sec), nil
}

// PendingAtEnd starts the message of a scrape the run's end cut off.
const PendingAtEnd = "still pending at the run's end"

// cutOff records a scrape the run's end interrupted, after took, as a
// failure when no scrape has answered or the target is failing: a target
// that hangs or trickles in a run shorter than Timeout is otherwise never
// mentioned. A healthy target's last scrape cut short is no failure.
func (s *Scraper) cutOff(t *target, sec int, took time.Duration) {
	if t.answered && !t.fail.failing {
		return
	}
	s.failed(t, sec, &scrapeError{KindTimeout, PendingAtEnd + ", after " + took.Round(100*time.Millisecond).String()})
}

// failed records a failed scrape, reporting the record when the target
// starts failing. A target whose first scrape failed is failing from the
// run's start, not from when that scrape gave up (up to Timeout later).
func (s *Scraper) failed(t *target, sec int, err error) {
	f := &t.fail
	if f.rec.Failures == 0 {
		// shown and stored: without the URL's credentials (net/http quotes the URL)
		f.rec = Failure{Target: t.cfg.Name, URL: plan.Redact(t.cfg.URL), Kind: kindOf(err), First: plan.Redact(err.Error()), FirstSec: sec}
		if !t.answered {
			f.rec.FirstSec = 0
			if f.rec.Kind == KindTimeout {
				f.rec.First = "no scrape answered: " + f.rec.First
			}
		}
	}
	f.rec.Failures++
	f.rec.LastSec = sec
	f.rec.RecoveredSec = -1
	if f.failing {
		f.dirty = true
		return
	}
	f.failing, f.dirty = true, false
	s.report(f.rec)
}

// recovered records the first good scrape after failures and reports it.
func (s *Scraper) recovered(t *target, sec int) {
	f := &t.fail
	f.failing, f.dirty = false, false
	f.rec.RecoveredSec = sec
	s.report(f.rec)
}

// finish reports a failure record that changed since it was last reported.
func (s *Scraper) finish(t *target) {
	if t.fail.dirty {
		t.fail.dirty = false
		s.report(t.fail.rec)
	}
}
