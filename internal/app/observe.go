package app

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/loadlens/loadlens/internal/scrape"
	"github.com/loadlens/loadlens/internal/series"
	"github.com/loadlens/loadlens/internal/store"
	"github.com/loadlens/loadlens/internal/units"
)

// observations gathers the run's time series: what the target's Prometheus
// endpoints reported and what the generator saw of itself. It writes them
// to run.db as they come and keeps them for the diagnosis at the end.
type observations struct {
	w      *store.Writer
	notice func(string)

	mu       sync.Mutex
	byKey    map[string]*series.Series
	set      series.Set
	failures map[string]bool // targets whose failure was already announced
	errs     []store.ScrapeError
	storeErr error
}

func newObservations(w *store.Writer, notice func(string)) *observations {
	return &observations{w: w, notice: notice, byKey: map[string]*series.Series{}, failures: map[string]bool{}}
}

// Scraped keeps and stores one scrape of one target.
func (o *observations) Scraped(_ string, set series.Set) { o.add(set) }

// ScrapeFailed stores a target's failure record and announces it once.
func (o *observations) ScrapeFailed(f scrape.Failure) {
	e := store.ScrapeError(f)
	o.mu.Lock()
	first := !o.failures[f.Target]
	o.failures[f.Target] = true
	replaced := false
	for i := range o.errs {
		if o.errs[i].Target == e.Target {
			o.errs[i], replaced = e, true
		}
	}
	if !replaced {
		o.errs = append(o.errs, e)
	}
	if o.storeErr == nil {
		o.storeErr = o.w.WriteScrapeError(e)
	}
	o.mu.Unlock()
	if first {
		tail := "; the run goes on without it"
		if strings.Contains(f.First, scrape.PendingAtEnd) {
			tail = "" // found when the run ended: there is no run to go on
		}
		o.notice(fmt.Sprintf("scraping %s (%s) fails from %s: %s: %s%s", f.Target, f.URL, units.Clock(f.FirstSec), f.Kind, f.First, tail))
	}
}

// Limited announces, once per target, what it exposed beyond the bounds.
func (o *observations) Limited(v scrape.Overflow) { o.notice(overflowNote(v)) }

// add appends one point per series to the kept set and writes it to run.db.
func (o *observations) add(set series.Set) {
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, s := range set {
		k := s.Key()
		kept := o.byKey[k]
		if kept == nil {
			kept = &series.Series{Name: s.Name, Labels: s.Labels, Kind: s.Kind}
			o.byKey[k] = kept
			o.set = append(o.set, kept)
		}
		kept.Points = append(kept.Points, s.Points...)
	}
	if o.storeErr != nil {
		return // run.db has failed: the series stay in memory for the summary
	}
	if err := o.w.WriteSeries(set...); err != nil {
		o.storeErr = err // the collector stops the load when it sees it (see writeErr)
	}
}

// writeErr returns the first failure to write to run.db, nil when none.
func (o *observations) writeErr() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.storeErr
}

// Set returns every series kept so far.
func (o *observations) Set() series.Set {
	o.mu.Lock()
	defer o.mu.Unlock()
	return append(series.Set(nil), o.set...)
}

// ScrapeErrors returns the failure records of the targets that failed.
func (o *observations) ScrapeErrors() []store.ScrapeError {
	o.mu.Lock()
	defer o.mu.Unlock()
	return append([]store.ScrapeError(nil), o.errs...)
}

// scraping is the part that scrapes the plan's observe targets until its
// context ends; with no targets it does nothing. Only making the scraper
// can fail: its failures while it runs reach o.
func scraping(targets []scrape.Target, start time.Time, o *observations) (part, error) {
	if len(targets) == 0 {
		return func(context.Context) error { return nil }, nil
	}
	s, err := scrape.New(targets, start, o)
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context) error {
		_ = s.Run(ctx) // failures reach the sink; Run itself only ends with ctx
		return nil
	}, nil
}
