package scrape

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/series"
)

// recorder is a Sink that keeps every call and closes done once until
// says it has seen enough.
type recorder struct {
	mu       sync.Mutex
	scraped  map[string][]series.Set
	failures map[string][]Failure
	notes    map[string][]Overflow  // Limited's, by target
	until    func(r *recorder) bool // called under mu
	done     chan struct{}
	closed   bool
}

func newRecorder(until func(r *recorder) bool) *recorder {
	return &recorder{scraped: map[string][]series.Set{}, failures: map[string][]Failure{}, notes: map[string][]Overflow{}, until: until, done: make(chan struct{})}
}

func (r *recorder) Scraped(target string, set series.Set) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.scraped[target] = append(r.scraped[target], set)
	r.check()
}

func (r *recorder) ScrapeFailed(f Failure) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.failures[f.Target] = append(r.failures[f.Target], f)
	r.check()
}

func (r *recorder) Limited(o Overflow) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.notes[o.Target] = append(r.notes[o.Target], o)
	r.check()
}

func (r *recorder) check() {
	if !r.closed && r.until(r) {
		r.closed = true
		close(r.done)
	}
}

// up returns the values of a target's up series, scrape by scrape.
func (r *recorder) up(target string) []float64 {
	var out []float64
	for _, set := range r.scraped[target] {
		for _, s := range set.Find("up") {
			out = append(out, s.Points[0].Value)
		}
	}
	return out
}

// stepClock reads one second later at every call, so every scrape lands in
// a second of its own however fast the test scrapes.
type stepClock struct{ n atomic.Int64 }

func (c *stepClock) now() time.Time { return t0.Add(time.Duration(c.n.Add(1)) * time.Second) }

// runScraper runs s until rec is done (or 20 s pass, a failure) and
// returns once Run has returned.
func runScraper(t *testing.T, s *Scraper, rec *recorder) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	finished := make(chan error, 1)
	go func() { finished <- s.Run(ctx) }()
	select {
	case <-rec.done:
	case <-time.After(20 * time.Second):
		rec.mu.Lock()
		t.Errorf("the recorder never saw enough scrapes; failures: %+v", rec.failures)
		rec.mu.Unlock()
	}
	cancel()
	if err := <-finished; err != nil {
		t.Errorf("Run: %v", err)
	}
}

const goodText = "# TYPE g gauge\ng 1\n"

func TestFailingTargetsAreReportedOnceAndOthersKeepGoing(t *testing.T) {
	good := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, goodText) }))
	defer good.Close()
	status := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, "boom", http.StatusInternalServerError)
	}))
	defer status.Close()
	garbage := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, "<html>{{ not metrics\n") }))
	defer garbage.Close()
	release := make(chan struct{})
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select { // answer only after the client gave up
		case <-r.Context().Done():
		case <-release:
		}
	}))
	defer slow.Close()
	defer close(release)
	refused := closedAddr(t)

	const interval = 400 * time.Millisecond
	targets := []Target{
		{Name: "good", URL: good.URL + "/metrics", Interval: interval},
		{Name: "status", URL: status.URL, Interval: interval},
		{Name: "garbage", URL: garbage.URL, Interval: interval},
		{Name: "slow", URL: slow.URL, Interval: interval},
		{Name: "refused", URL: "http://" + refused + "/metrics", Interval: interval},
	}
	bad := []struct{ name, kind, first string }{
		{"status", KindHTTPStatus, "HTTP 500 Internal Server Error"},
		{"garbage", KindParse, "not Prometheus text exposition: "},
		{"slow", KindTimeout, "no scrape answered: no complete response within 360ms"},
		{"refused", KindRefused, "connection refused"},
	}
	rec := newRecorder(func(r *recorder) bool {
		if len(r.scraped["good"]) < 4 {
			return false
		}
		for _, b := range bad {
			if len(r.up(b.name)) < 3 {
				return false
			}
		}
		return true
	})
	s, err := New(targets, t0, rec)
	if err != nil {
		t.Fatal(err)
	}
	s.timeout = 360 * time.Millisecond // ample for the good target on 127.0.0.1
	clock := &stepClock{}
	s.now = clock.now
	runScraper(t, s, rec)

	rec.mu.Lock()
	defer rec.mu.Unlock()
	if n := len(rec.failures["good"]); n != 0 {
		t.Errorf("the good target has %d failure reports: %+v", n, rec.failures["good"])
	}
	for _, v := range rec.up("good") {
		if v != 1 {
			t.Errorf("good target: up %v, want 1 at every scrape", rec.up("good"))
			break
		}
	}
	for _, b := range bad {
		t.Run(b.name, func(t *testing.T) {
			fs := rec.failures[b.name]
			// Reported when it started failing, then once more at the end
			// with the count: never once per failed scrape.
			if len(fs) != 2 {
				t.Fatalf("%d reports %+v, want 2: when it starts failing and at the end", len(fs), fs)
			}
			first, last := fs[0], fs[1]
			if first.Kind != b.kind || !strings.HasPrefix(first.First, b.first) || first.Failures != 1 || first.RecoveredSec != -1 {
				t.Errorf("first report %+v, want kind %s, error starting %q, 1 failure, not recovered", first, b.kind, b.first)
			}
			ups := rec.up(b.name)
			if last.First != first.First || last.FirstSec != first.FirstSec || last.Failures < len(ups) || last.LastSec <= last.FirstSec || last.RecoveredSec != -1 {
				t.Errorf("last report %+v after %d failed scrapes, want the same first error and the count", last, len(ups))
			}
			for _, v := range ups {
				if v != 0 {
					t.Errorf("up %v, want 0 at every scrape", ups)
					break
				}
			}
		})
	}
}

func TestRecoveryIsReported(t *testing.T) {
	var calls atomic.Int64
	flaky := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		if calls.Add(1) <= 2 {
			http.Error(w, "starting", http.StatusServiceUnavailable)
			return
		}
		fmt.Fprint(w, goodText)
	}))
	defer flaky.Close()
	rec := newRecorder(func(r *recorder) bool { return len(r.up("flaky")) >= 4 })
	s, err := New([]Target{{Name: "flaky", URL: flaky.URL, Interval: 50 * time.Millisecond}}, t0, rec)
	if err != nil {
		t.Fatal(err)
	}
	clock := &stepClock{}
	s.now = clock.now
	runScraper(t, s, rec)

	rec.mu.Lock()
	defer rec.mu.Unlock()
	fs := rec.failures["flaky"]
	if len(fs) != 2 {
		t.Fatalf("reports %+v, want 2: the failure and the recovery", fs)
	}
	// failing from the run's start: its first scrape failed
	want := Failure{Target: "flaky", URL: flaky.URL, Kind: KindHTTPStatus, First: "HTTP 503 Service Unavailable",
		FirstSec: 0, LastSec: 2, Failures: 2, RecoveredSec: 3}
	if fs[1] != want {
		t.Errorf("recovery report %+v, want %+v", fs[1], want)
	}
	if ups := rec.up("flaky"); ups[0] != 0 || ups[1] != 0 || ups[2] != 1 {
		t.Errorf("up %v, want 0, 0, then 1", ups)
	}
}

func TestScrapesLandOnTheRunsSeconds(t *testing.T) {
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprintf(w, "# TYPE c counter\nc %d\n", 10*n.Add(1))
	}))
	defer srv.Close()
	rec := newRecorder(func(r *recorder) bool { return len(r.scraped["c"]) >= 3 })
	s, err := New([]Target{{Name: "c", URL: srv.URL, Interval: 50 * time.Millisecond, Labels: []series.Label{{Name: "role", Value: "app"}}}}, t0, rec)
	if err != nil {
		t.Fatal(err)
	}
	var calls atomic.Int64
	s.now = func() time.Time { // scrapes at 0.5 s, 2.5 s, 4.5 s... of the run
		return t0.Add(time.Duration(calls.Add(1)-1)*2*time.Second + 500*time.Millisecond)
	}
	runScraper(t, s, rec)

	rec.mu.Lock()
	defer rec.mu.Unlock()
	sets := rec.scraped["c"]
	if got := sets[0].Find("c"); len(got) != 0 {
		t.Errorf("first scrape has a rate %v; a counter needs two scrapes", got)
	}
	for i, set := range sets[1:3] {
		cs := set.Find("c", "role", "app", "target", "c")
		if len(cs) != 1 {
			t.Fatalf("scrape %d: %d series c with the target's labels, want 1: %v", i+1, len(cs), lines(set))
		}
		wantSec := 2 * (i + 1) // 2.5 s → second 2, 4.5 s → second 4
		if p := cs[0].Points[0]; p.Sec != wantSec || p.Value != 5 || cs[0].Kind != series.Rate {
			t.Errorf("scrape %d: %s %v (%s), want second %d, rate 5/s (10 per 2 s)", i+1, cs[0].Key(), p, cs[0].Kind, wantSec)
		}
	}
}

func TestNewRefusesAnUnknownPreset(t *testing.T) {
	_, err := New([]Target{{Name: "x", URL: "http://127.0.0.1:1/", Preset: "oracle", Interval: time.Second}}, t0, newRecorder(nil))
	if err == nil || err.Error() != `observe target x: unknown preset "oracle"` {
		t.Errorf("error %v, want the unknown preset named", err)
	}
}

// closedAddr returns a 127.0.0.1 address where nothing listens.
func closedAddr(t *testing.T) string {
	t.Helper()
	return closedAddrs(t, 1)[0]
}

// closedAddrs returns n distinct 127.0.0.1 addresses where nothing listens:
// all are held open until all are chosen, so none is handed out twice.
func closedAddrs(t *testing.T, n int) []string {
	t.Helper()
	var out []string
	var ls []net.Listener
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		ls = append(ls, l)
		out = append(out, l.Addr().String())
	}
	for _, l := range ls {
		if err := l.Close(); err != nil {
			t.Fatal(err)
		}
	}
	return out
}
