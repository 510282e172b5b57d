package scrape

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestATargetThatNeverAnswersIsReported: a target that hangs or trickles
// was not mentioned at all in a run shorter than the scrape timeout (its
// one scrape was cut off by the run's end), and in a longer run was dated
// from its first timeout (0:09) though no scrape ever answered.
func TestATargetThatNeverAnswersIsReported(t *testing.T) {
	hang := func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }
	trickle := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "100000")
		fmt.Fprint(w, "# TYPE g gauge\n")
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}
	answerOnce := func(n int64) func(http.ResponseWriter, *http.Request) {
		return func(w http.ResponseWriter, r *http.Request) {
			if n == 1 {
				fmt.Fprint(w, goodText)
				return
			}
			<-r.Context().Done()
		}
	}
	const pending = "no scrape answered: still pending at the run's end, after "
	tests := []struct {
		name     string
		handler  func(n int64) func(http.ResponseWriter, *http.Request) // for the n-th request
		timeout  time.Duration
		requests int64  // the run ends once this many have arrived
		first    string // the first error's start; "" when nothing is reported
		failures int
	}{
		{"hangs, the run ends first", func(int64) func(http.ResponseWriter, *http.Request) { return hang }, time.Minute, 1, pending, 1},
		{"trickles, the run ends first", func(int64) func(http.ResponseWriter, *http.Request) { return trickle }, time.Minute, 1, pending, 1},
		{"hangs past the timeout", func(int64) func(http.ResponseWriter, *http.Request) { return hang }, 100 * time.Millisecond, 2,
			"no scrape answered: no complete response within 100ms", 2},
		{"answered, then cut off by the end", answerOnce, time.Minute, 2, "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var n atomic.Int64
			arrived := make(chan int64, 16)
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				i := n.Add(1)
				arrived <- i
				tt.handler(i)(w, r)
			}))
			defer srv.Close()
			rec := newRecorder(func(*recorder) bool { return false })
			s, err := New([]Target{{Name: "x", URL: srv.URL, Interval: 20 * time.Millisecond}}, t0, rec)
			if err != nil {
				t.Fatal(err)
			}
			s.timeout = tt.timeout
			clock := &stepClock{}
			s.now = clock.now
			ctx, cancel := context.WithCancel(context.Background())
			finished := make(chan error, 1)
			go func() { finished <- s.Run(ctx) }()
			for got := int64(0); got < tt.requests; {
				select {
				case got = <-arrived:
				case <-time.After(20 * time.Second):
					t.Fatalf("%d scrapes arrived, want %d", got, tt.requests)
				}
			}
			cancel()
			<-finished
			srv.CloseClientConnections()

			rec.mu.Lock()
			defer rec.mu.Unlock()
			fs := rec.failures["x"]
			if tt.first == "" {
				if len(fs) != 0 {
					t.Errorf("reports %+v, want none", fs)
				}
				return
			}
			if len(fs) == 0 {
				t.Fatal("no report: the target was not mentioned")
			}
			last := fs[len(fs)-1]
			if last.Kind != KindTimeout || !strings.HasPrefix(last.First, tt.first) || last.FirstSec != 0 || last.Failures != tt.failures || last.RecoveredSec != -1 {
				t.Errorf("last report %+v, want a timeout from 0:00 starting %q, %d failures, not recovered", last, tt.first, tt.failures)
			}
		})
	}
}
