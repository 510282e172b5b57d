package main

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/store"
)

// TestFiguresFromRunDB writes a run.db whose second 0 is slow (50 ms) and
// seconds 1–9 fast (1 ms, 2 ms in second 5), and checks each figure.
func TestFiguresFromRunDB(t *testing.T) {
	layout := sample.Layout{Scenarios: []sample.ScenarioInfo{{Name: "a", Model: "arrival-rate"}},
		Endpoints: []sample.EndpointInfo{{Name: "GET /", Method: "GET"}}}
	path := filepath.Join(t.TempDir(), "run.db")
	w, err := store.Create(path, store.Meta{ID: "x", Name: "x", Start: time.Unix(0, 0), Layout: layout})
	if err != nil {
		t.Fatal(err)
	}
	rec := metrics.NewRecorder(layout, 1)
	for sec := range 10 {
		d := time.Millisecond
		switch sec {
		case 0:
			d = 50 * time.Millisecond
		case 5:
			d = 2 * time.Millisecond
		}
		end := time.Duration(sec) * time.Second
		for range 100 {
			rec.Sink(0).Request(&sample.Request{End: end, Duration: d, Status: 200})
		}
		if sec == 3 {
			rec.Sink(0).Dropped(0, end)
		}
		s := rec.Collect(sec)
		s.SetGauges([]sample.Gauge{{Active: 4, Allocated: int64(7 + sec%2)}})
		if err := w.WriteSecond(s); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if err := run(path, &out); err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{}
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		k, v, _ := strings.Cut(line, "\t")
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			t.Fatalf("line %q: %v", line, err)
		}
		got[k] = f
	}
	tests := []struct {
		key    string
		lo, hi float64
	}{
		{"rdb_reqs", 1000, 1000},
		{"rdb_dropped", 1, 1},
		{"rdb_failed", 0, 0},
		{"vus_max", 8, 8},
		{"p999_ms", 49.9, 50.1}, // the slowest 10 % of the run is second 0
		{"s0_p99_ms", 49.9, 50.1},
		{"s1_9_p99_med_ms", 0.99, 1.01},
		{"s1_9_p99_max_ms", 1.99, 2.01},
	}
	for _, tt := range tests {
		v, ok := got[tt.key]
		if !ok || v < tt.lo || v > tt.hi {
			t.Errorf("%s = %v (present: %v), want %v..%v", tt.key, v, ok, tt.lo, tt.hi)
		}
	}
}
