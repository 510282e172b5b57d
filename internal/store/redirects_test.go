package store

import (
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/sample"
)

// TestRedirectsAndStartAreKept checks that run.db keeps the redirects an
// endpoint's requests followed (the requests the target got beyond the
// samples) and when its requests were sent, in the snapshots the summary
// is rebuilt from and in the plain rows a person queries.
func TestRedirectsAndStartAreKept(t *testing.T) {
	layout := testMeta().Layout
	rec := metrics.NewRecorder(layout, 1)
	sink := rec.Sink(0)
	for i := range 4 { // four chains of one redirect each, sent 250ms apart from 0, answered at 1.5s
		d := 1500*time.Millisecond - time.Duration(i)*250*time.Millisecond
		sink.Request(&sample.Request{Endpoint: 1, End: 1500 * time.Millisecond, Duration: d, Status: 200, Redirects: 1})
	}
	w, path := create(t, 0)
	if err := w.WriteSecond(rec.Collect(0)); err != nil {
		t.Fatal(err)
	}
	if err := w.WriteSecond(rec.Collect(1)); err != nil {
		t.Fatal(err)
	}
	if err := w.Finish(Finish{End: time.Now(), Status: "completed", Elapsed: 1510 * time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	var redirects int64
	var before float64
	if err := rawDB(t, path).QueryRow(`SELECT redirects, started_before_ms FROM endpoint_seconds WHERE sec = 1 AND endpoint = 1`).Scan(&redirects, &before); err != nil {
		t.Fatal(err)
	}
	if redirects != 4 || before != 1000 {
		t.Errorf("plain row: %d redirects, started %vms before its second; want 4, 1000", redirects, before)
	}
	run, err := open(t, path).Run()
	if err != nil {
		t.Fatal(err)
	}
	e := &run.Endpoints[1]
	want := metrics.Sends{FirstStart: 0, LastStart: 750 * time.Millisecond, LastEnd: 1500 * time.Millisecond, Kept: true}
	if e.Requests != 4 || e.Redirects != 4 || e.FirstSec != 0 || e.Sends != want {
		t.Errorf("read back %d requests, %d redirects, active from second %d, sent %+v; want 4, 4, 0, %+v",
			e.Requests, e.Redirects, e.FirstSec, e.Sends, want)
	}
}
