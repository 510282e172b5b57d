package metrics

import (
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/threshold"
)

// TestFactsThroughPipeline records session samples with protocol facts
// beside plain HTTP requests, then sends the seconds through the binary
// codec and into a Run: the facts arrive whole on their endpoint, and an
// HTTP endpoint carries none.
func TestFactsThroughPipeline(t *testing.T) {
	layout := testLayout()
	layout.Endpoints[1].Protocol = "sse"
	cases := []struct {
		name     string
		sessions int
		gaps     int
		wantRecv int64
	}{
		{"one session, no message", 1, 0, 0},
		{"three sessions with gaps", 3, 4, 15},
		{"gaps beyond the cap are dropped by the producer", 2, sample.MaxGaps + 10, 2 * (sample.MaxGaps + 11)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rec := NewRecorder(layout, 2)
			sink := rec.Sink(0)
			var f sample.Facts
			for s := range tc.sessions {
				f.Reset()
				f.MsgsReceived = int64(tc.gaps + 1)
				if tc.gaps == 0 {
					f.MsgsReceived = 0
				}
				f.FirstMsg, f.Session, f.Reconnects, f.Reply = 5*time.Millisecond, time.Second, 1, 3*time.Millisecond
				for g := range tc.gaps {
					f.Gap(time.Duration(g+1) * time.Millisecond)
				}
				sink.Request(&sample.Request{Endpoint: 1, End: time.Duration(s) * time.Millisecond, Duration: time.Second, Facts: &f})
			}
			http := request(0, 0)
			sink.Request(&http)
			b, err := rec.Collect(0).MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			var snap Snapshot
			if err := snap.UnmarshalBinary(b); err != nil {
				t.Fatal(err)
			}
			run := NewRun(layout)
			run.Add(&snap)
			if run.Endpoints[0].Facts != nil {
				t.Errorf("an HTTP endpoint carries facts: %+v", run.Endpoints[0].Facts)
			}
			got := run.Endpoints[1].Facts
			if got == nil {
				t.Fatal("the sse endpoint carries no facts")
			}
			wantGaps := int64(tc.sessions * min(tc.gaps, sample.MaxGaps))
			wantFirst := int64(tc.sessions)
			if tc.gaps == 0 {
				wantFirst = 0
			}
			if got.Sessions != int64(tc.sessions) || got.MsgsReceived != tc.wantRecv || got.Reconnects != int64(tc.sessions) ||
				got.Gap.Count() != wantGaps || got.Session.Count() != int64(tc.sessions) || got.FirstMsg.Count() != wantFirst ||
				got.Reply.Count() != int64(tc.sessions) {
				t.Errorf("facts = %+v (gaps %d, first %d); want %d sessions, %d received, %d gaps, %d firsts",
					got, got.Gap.Count(), got.FirstMsg.Count(), tc.sessions, tc.wantRecv, wantGaps, wantFirst)
			}
		})
	}
}

// TestSnapshotWithoutFactsKeepsItsVersion: a run with no session protocol
// writes snapshots an earlier build reads.
func TestSnapshotWithoutFactsKeepsItsVersion(t *testing.T) {
	rec := NewRecorder(testLayout(), 1)
	r := request(1, 0)
	rec.Sink(0).Request(&r)
	b, err := rec.Collect(0).MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if v := b[len(snapshotMagic)]; v >= factsVersion {
		t.Errorf("version %d for a snapshot without facts", v)
	}
}

// TestObserveFacts: thresholds read a protocol's facts by the metric's
// prefix, from that protocol's endpoints only.
func TestObserveFacts(t *testing.T) {
	layout := testLayout()
	layout.Endpoints[1].Protocol = "sse"
	rec := NewRecorder(layout, 1)
	f := sample.Facts{MsgsReceived: 4, FirstMsg: 20 * time.Millisecond, Session: 2 * time.Second}
	for g := range 3 {
		f.Gap(time.Duration(g+1) * 100 * time.Millisecond)
	}
	rec.Sink(0).Request(&sample.Request{Endpoint: 1, End: time.Second / 2, Duration: 2 * time.Second, Facts: &f})
	run := NewRun(layout)
	run.Add(rec.Collect(0))
	tests := []struct {
		key, expr string
		want      float64
		hasData   bool
	}{
		{"sse_msgs_received", "count > 0", 4, true},
		{"sse_sessions", "count == 1", 1, true},
		{"sse_time_to_first_msg", "p(95) < 100ms", 20, true},
		{"sse_msg_gap", "max < 1s", 300, true},
		{`sse_msgs_received{endpoint:"GET /"}`, "count > 0", 0, false}, // an HTTP endpoint has no facts
		{"ws_msgs_received", "count > 0", 0, false},                    // no ws endpoint in the test
		{"sse_req_duration", "max < 3s", 2000, true},                   // the sessions' durations, as grpc_req_duration
		{`sse_req_duration{endpoint:"GET /"}`, "max < 3s", 0, false},
		{"ws_req_duration", "max < 3s", 0, false},
	}
	for _, tc := range tests {
		th, err := threshold.New(tc.key, tc.expr)
		if err != nil {
			t.Fatalf("%s: %v", tc.key, err)
		}
		got, ok := run.Observe(&th)
		if ok != tc.hasData || ok && (got < tc.want*0.99 || got > tc.want*1.01) {
			t.Errorf("%s %s: %v, %v; want %v, %v", tc.key, tc.expr, got, ok, tc.want, tc.hasData)
		}
	}
}
