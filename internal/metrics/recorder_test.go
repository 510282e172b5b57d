package metrics

import (
	"bytes"
	"sync"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/sample"
)

// TestPipelineConservesCounts records from many goroutines into two
// recorders (two agents of a distributed run) while collectors run, then
// sends every snapshot through Marshal, Unmarshal and Merge into a Run, and
// checks that nothing was lost or counted twice.
func TestPipelineConservesCounts(t *testing.T) {
	const (
		agents  = 2
		vus     = 8 // per agent
		perVU   = 3000
		seconds = 5
	)
	layout := testLayout()
	want := newExpectation()
	wantIterDur := NewHist()
	var wantPasses, wantFails, wantIters, wantDropped, wantLags int64
	step := seconds * time.Second / perVU
	for a := range agents {
		for v := range vus {
			for i := range perVU {
				want.add(request((a*vus+v)*perVU+i, 0))
				if i%3 == 0 {
					if i%2 == 0 {
						wantPasses++
					} else {
						wantFails++
					}
				}
				if i%4 == 0 {
					wantIters++
					wantLags++
					wantIterDur.Record(time.Duration(i) * time.Millisecond)
				}
				if i%100 == 0 {
					wantDropped++
				}
			}
		}
	}

	snaps := make([][]*Snapshot, agents)
	var agentsDone sync.WaitGroup
	for a := range agents {
		agentsDone.Add(1)
		go func() {
			defer agentsDone.Done()
			rec := NewRecorder(layout, 3+a)
			var vusDone, collector sync.WaitGroup
			collector.Add(1)
			go func() {
				defer collector.Done()
				for s := range seconds {
					snaps[a] = append(snaps[a], rec.Collect(s))
				}
			}()
			for v := range vus {
				vusDone.Add(1)
				go func() {
					defer vusDone.Done()
					sink := rec.Sink(v)
					for i := range perVU {
						end := time.Duration(i) * step
						r := request((a*vus+v)*perVU+i, end)
						sink.Request(&r)
						if i%3 == 0 {
							sink.Check(int32(i%2), end, i%2 == 0)
						}
						if i%4 == 0 {
							sink.Iteration(int32(v%2), end, time.Duration(i)*time.Millisecond)
							sink.Lag(int32(v%2), end, time.Duration(i%7)*time.Millisecond)
						}
						if i%100 == 0 {
							sink.Dropped(1, end)
						}
					}
				}()
			}
			vusDone.Wait()
			collector.Wait()
			// Everything not collected yet, late records included.
			snaps[a] = append(snaps[a], rec.Collect(seconds))
		}()
	}
	agentsDone.Wait()

	run := NewRun(layout)
	for s := range seconds + 1 {
		var merged *Snapshot
		for a := range agents {
			got := roundTrip(t, snaps[a][s])
			if got.Second != s {
				t.Fatalf("agent %d snapshot %d is for second %d", a, s, got.Second)
			}
			if merged == nil {
				merged = got
			} else {
				merged.Merge(got)
			}
		}
		run.Add(merged)
	}

	total := run.Total()
	counts := []struct {
		name      string
		got, want int64
	}{
		{"requests", total.Requests, want.requests},
		{"bytes sent", total.Sent, want.sent},
		{"bytes received", total.Received, want.received},
		{"connects", total.Connects, want.connects},
		{"5xx failures", total.Failures[sample.HTTP5xx], want.failuresByKind[sample.HTTP5xx]},
		{"timeouts", total.Failures[sample.Timeout], want.failuresByKind[sample.Timeout]},
		{"interrupted", total.Failures[sample.Interrupted], want.failuresByKind[sample.Interrupted]},
		{"redirect failures", total.Failures[sample.Redirect], want.failuresByKind[sample.Redirect]},
		{"truncated bodies", total.Truncated, want.truncated},
		{"redirects followed", total.Redirects, want.redirects},
		{"series truncated", sumSeries(run, func(s Second) int64 { return s.Truncated }), want.truncated},
		{"duration samples", total.Duration.Count(), want.requests},
		{"waiting samples", total.Waiting.Count(), want.requests},
		{"check passes", run.Checks[0].Passes + run.Checks[1].Passes, wantPasses},
		{"check fails", run.Checks[0].Fails + run.Checks[1].Fails, wantFails},
		{"iterations", run.Scenarios[0].Iterations + run.Scenarios[1].Iterations, wantIters},
		{"dropped", run.Scenarios[1].Dropped, wantDropped},
		{"lag samples", run.Scenarios[0].Lag.Count() + run.Scenarios[1].Lag.Count(), wantLags},
		{"series requests", sumSeries(run, func(s Second) int64 { return s.Requests }), want.requests},
		{"series failures", sumSeries(run, func(s Second) int64 { return s.Failed }), want.failures},
		{"timeout group", errorGroupCount(total, sample.Timeout), want.failuresByKind[sample.Timeout]},
		{"interrupted group", errorGroupCount(total, sample.Interrupted), want.failuresByKind[sample.Interrupted]},
		{"redirect group", errorGroupCount(total, sample.Redirect), want.failuresByKind[sample.Redirect]},
	}
	for _, c := range counts {
		if c.want == 0 {
			t.Errorf("%s: the test records none, so it proves nothing", c.name)
		}
		if c.got != c.want {
			t.Errorf("%s: got %d, want %d", c.name, c.got, c.want)
		}
	}
	// Bucket for bucket, the merged histograms equal single-threaded recording.
	assertSameHist(t, "request duration", total.Duration, want.duration)
	iterDur := run.Scenarios[0].IterationDuration.Clone()
	iterDur.Merge(run.Scenarios[1].IterationDuration)
	assertSameHist(t, "iteration duration", iterDur, wantIterDur)
}

func sumSeries(run *Run, f func(Second) int64) int64 {
	var n int64
	for _, s := range run.Series {
		n += f(s)
	}
	return n
}

func errorGroupCount(t EndpointTotal, k sample.Kind) int64 {
	for _, g := range t.Errors {
		if g.Kind == k {
			return g.Count
		}
	}
	return 0
}

func roundTrip(t *testing.T, s *Snapshot) *Snapshot {
	t.Helper()
	b, err := s.MarshalBinary()
	if err != nil {
		t.Fatalf("MarshalBinary: %v", err)
	}
	var got Snapshot
	if err := got.UnmarshalBinary(b); err != nil {
		t.Fatalf("UnmarshalBinary: %v", err)
	}
	return &got
}

func assertSameHist(t *testing.T, name string, got, want *Hist) {
	t.Helper()
	var hc histCodec
	g, err := hc.appendHist(nil, got)
	if err != nil {
		t.Fatal(err)
	}
	w, err := hc.appendHist(nil, want)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(g, w) {
		t.Errorf("%s histogram differs: count %d p50 %v p99 %v max %v, want count %d p50 %v p99 %v max %v", name,
			got.Count(), got.Quantile(50), got.Quantile(99), got.Max(), want.Count(), want.Quantile(50), want.Quantile(99), want.Max())
	}
}

func TestRecorderLateAndEarlyRecords(t *testing.T) {
	type step struct {
		record  time.Duration // record one request ending at this offset; <0 means none
		collect int           // then collect this second; <0 means none
		want    int64         // requests in the collected snapshot
	}
	tests := []struct {
		name  string
		steps []step
	}{
		{"record in its second", []step{{500 * time.Millisecond, 0, 1}}},
		{"late record goes to the earliest open second", []step{
			{-1, 0, 0},
			{500 * time.Millisecond, 1, 1},
		}},
		{"late record after a gap lands in the next collect", []step{
			{-1, 2, 0},
			{1500 * time.Millisecond, -1, 0},
			{-1, 3, 1},
		}},
		{"record ahead waits for its second", []step{
			{3200 * time.Millisecond, 1, 0},
			{-1, 2, 0},
			{-1, 3, 1},
		}},
		{"collect takes every earlier second", []step{
			{100 * time.Millisecond, -1, 0},
			{1100 * time.Millisecond, -1, 0},
			{2100 * time.Millisecond, 2, 3},
		}},
		{"zero offset counts in second 0", []step{{0, 0, 1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := NewRecorder(testLayout(), 2)
			sink := rec.Sink(1)
			for i, st := range tt.steps {
				if st.record >= 0 {
					r := request(0, st.record)
					sink.Request(&r)
				}
				if st.collect < 0 {
					continue
				}
				snap := rec.Collect(st.collect)
				if snap.Second != st.collect {
					t.Errorf("step %d: snapshot second %d, want %d", i, snap.Second, st.collect)
				}
				if got := snap.Endpoints[0].Requests; got != st.want {
					t.Errorf("step %d: collected %d requests, want %d", i, got, st.want)
				}
				if got := snap.Endpoints[0].Duration.Count(); got != st.want {
					t.Errorf("step %d: duration histogram holds %d, want %d", i, got, st.want)
				}
			}
		})
	}
}

func TestRecorderErrorSamples(t *testing.T) {
	rec := NewRecorder(testLayout(), 1)
	sink := rec.Sink(0)
	msgs := []string{"a", "b", "a", "c", "d", "e"}
	for _, m := range msgs {
		sink.Request(&sample.Request{Endpoint: 1, Kind: sample.Timeout, Err: m})
	}
	sink.Request(&sample.Request{Endpoint: 1, Kind: sample.HTTP4xx, Status: 404, Err: "404 Not Found"})
	sink.Request(&sample.Request{Endpoint: 1, Kind: sample.HTTP4xx, Status: 429, Err: "429 Too Many Requests"})
	e := rec.Collect(0).Endpoints[1]
	if e.Failures[sample.Timeout] != 6 || e.Failures[sample.HTTP4xx] != 2 || e.Failures[sample.OK] != 0 {
		t.Errorf("failures %v, want 6 timeouts and 2 4xx", e.Failures)
	}
	want := []ErrorSample{
		{Kind: sample.HTTP4xx, Status: 404, Message: "404 Not Found", Count: 1},
		{Kind: sample.HTTP4xx, Status: 429, Message: "429 Too Many Requests", Count: 1},
		{Kind: sample.Timeout, Message: "a", Count: 2},
		{Kind: sample.Timeout, Message: "b", Count: 1},
		{Kind: sample.Timeout, Message: "c", Count: 1},
	}
	if len(e.Errors) != len(want) {
		t.Fatalf("errors %+v, want %+v", e.Errors, want)
	}
	for i := range want {
		if e.Errors[i] != want[i] {
			t.Errorf("error %d = %+v, want %+v", i, e.Errors[i], want[i])
		}
	}
}

func TestRecorderRejectsUnknownIDs(t *testing.T) {
	tests := []struct {
		name   string
		record func(sample.Sink)
	}{
		{"endpoint", func(s sample.Sink) { s.Request(&sample.Request{Endpoint: 3}) }},
		{"negative endpoint", func(s sample.Sink) { s.Request(&sample.Request{Endpoint: -1}) }},
		{"check", func(s sample.Sink) { s.Check(2, 0, true) }},
		{"scenario", func(s sample.Sink) { s.Iteration(2, 0, 0) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := NewRecorder(testLayout(), 1)
			defer func() {
				if recover() == nil {
					t.Error("recording an id outside the layout did not panic")
				}
			}()
			tt.record(rec.Sink(0))
		})
	}
}

func TestRecorderReusesWindows(t *testing.T) {
	rec := NewRecorder(testLayout(), 1)
	sink := rec.Sink(0)
	for s := range 3 {
		r := request(1, time.Duration(s)*time.Second)
		r.Kind, r.Err = sample.DNS, "no such host"
		sink.Request(&r)
		sink.Iteration(0, r.End, time.Second)
		snap := rec.Collect(s)
		// A reused window must start empty: exactly this second's record.
		if e := snap.Endpoints[1]; e.Requests != 1 || e.Duration.Count() != 1 || len(e.Errors) != 1 || e.Errors[0].Count != 1 {
			t.Errorf("second %d: requests %d, duration count %d, errors %+v; want 1, 1, one sample of count 1",
				s, e.Requests, e.Duration.Count(), e.Errors)
		}
		if it := snap.Scenarios[0]; it.Iterations != 1 || it.IterationDuration.Count() != 1 {
			t.Errorf("second %d: %d iterations, %d durations; want 1, 1", s, it.Iterations, it.IterationDuration.Count())
		}
	}
	if n := len(rec.shards[0].free) + len(rec.shards[0].open); n != 1 {
		t.Errorf("the shard holds %d windows after three seconds, want 1 reused", n)
	}
}
