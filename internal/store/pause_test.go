package store

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/series"
)

// TestWritesPauseEveryFewRows holds run.db's per-second writes to chunks:
// with a pause set, a second's snapshot pauses after each busy endpoint's
// encoding and every rowsPerPause rows, and a batch of series points every
// rowsPerPause points, so the longest stretch between two pauses does not
// grow with the endpoints or series. Every row is still written.
func TestWritesPauseEveryFewRows(t *testing.T) {
	for _, n := range []int{1, 7, 40} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			m := testMeta()
			m.Layout.Endpoints, m.Layout.Checks = nil, nil
			for i := range n {
				m.Layout.Endpoints = append(m.Layout.Endpoints, sample.EndpointInfo{Scenario: 0, Name: fmt.Sprintf("GET /%d", i), Method: "GET"})
			}
			path := filepath.Join(t.TempDir(), "run.db")
			w, err := Create(path, m)
			if err != nil {
				t.Fatal(err)
			}
			pauses := 0
			w.SetPause(func() { pauses++ })

			rec := metrics.NewRecorder(m.Layout, 2)
			for i := range n {
				rec.Sink(i).Request(&sample.Request{Endpoint: int32(i), End: time.Second / 2, Duration: time.Millisecond, Status: 200})
			}
			if err := w.WriteSecond(rec.Collect(0)); err != nil {
				t.Fatal(err)
			}
			// Encoding: one pause per busy endpoint and per scenario; then the seconds row, the endpoint rows and the commit.
			if least := n + len(m.Layout.Scenarios) + (1+n)/rowsPerPause + 1; pauses < least {
				t.Errorf("WriteSecond of %d endpoints paused %d times, want at least %d", n, pauses, least)
			}

			pauses = 0
			var set series.Set
			for i := range 3 * n {
				set = append(set, point(fmt.Sprintf("m%d", i), series.Gauge, 0, float64(i), "target", "t"))
			}
			if err := w.WriteSeries(set...); err != nil {
				t.Fatal(err)
			}
			if least := (3*n + rowsPerPause - 1) / rowsPerPause; pauses < least {
				t.Errorf("WriteSeries of %d points paused %d times, want at least %d (one per %d)", 3*n, pauses, least, rowsPerPause)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}

			var rows int
			if err := rawDB(t, path).QueryRow(`SELECT count(*) FROM endpoint_seconds WHERE sec = 0`).Scan(&rows); err != nil || rows != n {
				t.Errorf("%d endpoint rows (%v), want %d", rows, err, n)
			}
			got, err := open(t, path).Series()
			if err != nil || len(got) != 3*n {
				t.Errorf("%d series read back (%v), want %d", len(got), err, 3*n)
			}
		})
	}
}
