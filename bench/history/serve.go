package main

import (
	"encoding/json"
	"fmt"
	"math"
	"net"
	"net/http"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// stepServer serves paths whose service time the recording sets: each a
// fixed sleep plus, if asked, a fixed amount of CPU work (which a busy host
// slows as it would a real service's), both scaled by the path's factor.
// It keeps its own timing of every request, which the recording compares
// with what loadlens measured.
type stepServer struct {
	sleep   time.Duration // the sleep at factor 1
	spins   int           // the CPU work at factor 1, in rounds of spin
	mu      sync.Mutex
	factors map[string]float64         // path → factor (1 unless set)
	took    map[string][]time.Duration // path → handler times since the last /_stats
}

// spin is one round of CPU work the compiler cannot drop.
func spin(x uint64) uint64 {
	for range 1000 {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
	}
	return x
}

// maxTimed is how many handler times a path keeps between two /_stats.
const maxTimed = 1 << 20

// calibrate returns how many rounds of spin take about d on this host now.
func calibrate(d time.Duration) int {
	if d <= 0 {
		return 0
	}
	const rounds = 2000
	best := time.Duration(math.MaxInt64)
	for range 5 { // the fastest of five: the least disturbed by other processes
		began := time.Now()
		x := uint64(1)
		for range rounds {
			x = spin(x)
		}
		runtime.KeepAlive(x) // the work is not dropped as unused
		best = min(best, time.Since(began))
	}
	return max(1, int(float64(rounds)*float64(d)/float64(best)))
}

func (s *stepServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/_set": // ?/a=1.1&/b=1.2: the factors from now on; unnamed paths back to 1
		s.set(w, r)
		return
	case "/_stats": // the handler times since the last call, per path, then reset
		s.stats(w)
		return
	}
	began := time.Now()
	s.mu.Lock()
	f, ok := s.factors[r.URL.Path]
	s.mu.Unlock()
	if !ok {
		f = 1
	}
	time.Sleep(time.Duration(f * float64(s.sleep)))
	x := uint64(began.UnixNano()) | 1
	for range int(f * float64(s.spins)) {
		x = spin(x)
	}
	took := time.Since(began)
	s.mu.Lock()
	if len(s.took[r.URL.Path]) < maxTimed { // memory bounded if /_stats is never read
		s.took[r.URL.Path] = append(s.took[r.URL.Path], took)
	}
	s.mu.Unlock()
	fmt.Fprintf(w, "%d\n", x&1)
}

func (s *stepServer) set(w http.ResponseWriter, r *http.Request) {
	factors := map[string]float64{}
	for path, v := range r.URL.Query() {
		f, err := strconv.ParseFloat(v[0], 64)
		if err != nil || f <= 0 || !strings.HasPrefix(path, "/") {
			http.Error(w, fmt.Sprintf("%s=%s: want /path=factor, factor > 0", path, v[0]), http.StatusBadRequest)
			return
		}
		factors[path] = f
	}
	s.mu.Lock()
	s.factors = factors
	s.mu.Unlock()
}

// Timing is the server's own view of one path over one run.
type Timing struct {
	Requests int           `json:"requests"`
	P50      time.Duration `json:"p50_ns"`
	P95      time.Duration `json:"p95_ns"`
	Factor   float64       `json:"factor"`
}

func (s *stepServer) stats(w http.ResponseWriter) {
	s.mu.Lock()
	took, factors := s.took, s.factors
	s.took = map[string][]time.Duration{}
	s.mu.Unlock()
	out := map[string]Timing{}
	for path, ds := range took {
		slices.Sort(ds)
		f, ok := factors[path]
		if !ok {
			f = 1
		}
		out[path] = Timing{Requests: len(ds), P50: ds[(len(ds)-1)/2], P95: ds[(len(ds)-1)*95/100], Factor: f}
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(out)
}

// serveSteps serves the step server on addr (loopback only) until killed.
func serveSteps(addr string, sleep, work time.Duration) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return err
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("-serve-steps %s: the step server listens on a loopback address only", addr)
	}
	s := &stepServer{sleep: sleep, spins: calibrate(work), factors: map[string]float64{}, took: map[string][]time.Duration{}}
	srv := &http.Server{Addr: addr, Handler: s, ReadHeaderTimeout: 5 * time.Second}
	return srv.ListenAndServe()
}
