package app

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/scrape"
	"github.com/loadlens/loadlens/internal/store"
)

// TestScrapeFailureNotices: a target's failure is announced once, dated,
// and one found only at the run's end (a scrape still pending) does not
// say the run goes on without it.
func TestScrapeFailureNotices(t *testing.T) {
	tests := []struct {
		name string
		f    scrape.Failure
		want string
	}{
		{"during the run", scrape.Failure{Target: "api", URL: "http://h/metrics", Kind: scrape.KindRefused, First: "connection refused", FirstSec: 3, LastSec: 3, Failures: 1, RecoveredSec: -1},
			"scraping api (http://h/metrics) fails from 0:03: refused: connection refused; the run goes on without it"},
		{"pending at the run's end", scrape.Failure{Target: "hang", URL: "http://h/metrics", Kind: scrape.KindTimeout, First: "no scrape answered: " + scrape.PendingAtEnd + ", after 8.3s", LastSec: 8, Failures: 1, RecoveredSec: -1},
			"scraping hang (http://h/metrics) fails from 0:00: timeout: no scrape answered: still pending at the run's end, after 8.3s"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, err := store.Create(filepath.Join(t.TempDir(), "run.db"), store.Meta{ID: "r", Name: "n", Start: time.Now()})
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			var notes []string
			o := newObservations(w, func(s string) { notes = append(notes, s) })
			o.ScrapeFailed(tt.f)
			o.ScrapeFailed(tt.f)
			if len(notes) != 1 || notes[0] != tt.want {
				t.Errorf("notices %q, want one: %q", notes, tt.want)
			}
			if errs := o.ScrapeErrors(); len(errs) != 1 || errs[0].First != tt.f.First {
				t.Errorf("records %+v, want the one failure", errs)
			}
		})
	}
}
