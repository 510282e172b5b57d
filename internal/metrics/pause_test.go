package metrics

import (
	"bytes"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/sample"
)

// wideLayout has n endpoints in two scenarios.
func wideLayout(n int) sample.Layout {
	l := sample.Layout{Scenarios: []sample.ScenarioInfo{{Name: "browse", Model: "vus"}, {Name: "buy", Model: "arrival-rate"}}}
	for i := range n {
		l.Endpoints = append(l.Endpoints, sample.EndpointInfo{Scenario: int32(i % 2), Name: fmt.Sprintf("GET /%d", i), Method: "GET"})
	}
	return l
}

// recordBusy records into second sec of rec: 20 requests to each of the
// first busy endpoints, from 4 VUs (2 shards), and an iteration per request.
func recordBusy(rec *Recorder, sec, busy int) {
	for i := range busy * 20 {
		r := request(i, time.Duration(sec)*time.Second+500*time.Millisecond)
		r.Endpoint = int32(i % busy)
		rec.Sink(i%4).(*shard).RequestIteration(&r, r.Endpoint%2, r.Duration)
	}
}

// TestPausingChunksPerEndpoint holds the collector's per-second work to
// chunks of one endpoint: Collect, Run.Add and the run.db encoding call
// pause once per busy endpoint (and scenario histogram), so the longest
// stretch between two pauses does not grow with the number of endpoints.
// What they produce is what the unpaused calls produce.
func TestPausingChunksPerEndpoint(t *testing.T) {
	for _, tt := range []struct {
		endpoints, busy int
	}{
		{endpoints: 1, busy: 1},
		{endpoints: 8, busy: 3},
		{endpoints: 40, busy: 40},
	} {
		t.Run(fmt.Sprintf("%d_of_%d", tt.busy, tt.endpoints), func(t *testing.T) {
			layout := wideLayout(tt.endpoints)
			plain, paused := NewRecorder(layout, 2), NewRecorder(layout, 2)
			recordBusy(plain, 0, tt.busy)
			recordBusy(paused, 0, tt.busy)
			pauses := 0
			count := func() { pauses++ }

			want := plain.Collect(0)
			got := paused.CollectPausing(0, count)
			// A merge per busy endpoint, its windows' reset, and each scenario's two histograms.
			if wantPauses := 2*tt.busy + 2*len(layout.Scenarios); pauses != wantPauses {
				t.Errorf("CollectPausing paused %d times, want %d (one per endpoint and scenario histogram)", pauses, wantPauses)
			}
			wantBin, err := want.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			pauses = 0
			var enc Encoder
			gotBin, err := enc.AppendPausing(nil, got, count)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(gotBin, wantBin) {
				t.Error("the paused collection and encoding differ from the plain ones")
			}
			if wantPauses := tt.busy + len(layout.Scenarios); pauses != wantPauses {
				t.Errorf("AppendPausing paused %d times, want %d (one per busy endpoint and scenario)", pauses, wantPauses)
			}

			pauses = 0
			wantRun, gotRun := NewRun(layout), NewRun(layout)
			wantRun.Add(want)
			gotRun.AddPausing(got, count)
			if pauses != tt.busy {
				t.Errorf("AddPausing paused %d times, want %d (one per busy endpoint)", pauses, tt.busy)
			}
			if !reflect.DeepEqual(gotRun.Series, wantRun.Series) || gotRun.Endpoints[0].Requests != 20 ||
				gotRun.Endpoints[0].Duration.Count() != wantRun.Endpoints[0].Duration.Count() {
				t.Errorf("the paused Add differs: %+v, want %+v", gotRun.Series, wantRun.Series)
			}

			// The windows reused were reset: the next second holds its own requests only.
			recordBusy(paused, 1, tt.busy)
			for i, e := range paused.Collect(1).Endpoints[:tt.busy] {
				if e.Requests != 20 || e.Duration.Count() != 20 {
					t.Errorf("second 1, endpoint %d: %d requests, %d durations; want 20, 20", i, e.Requests, e.Duration.Count())
				}
			}
		})
	}
}
