package metrics

import (
	"reflect"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/sample"
)

// TestRequestIterationRecordsAsTwoCalls: recording a request and the
// iteration it ends at once gives the seconds that the two separate calls
// give, late records included.
func TestRequestIterationRecordsAsTwoCalls(t *testing.T) {
	two, one := NewRecorder(testLayout(), 2), NewRecorder(testLayout(), 2)
	const n = 3000
	for sec := 0; sec < 3; sec++ {
		for i := sec * n / 3; i < (sec+1)*n/3; i++ {
			end := time.Duration(sec)*time.Second + time.Duration(i%1000)*time.Millisecond
			if i%97 == 0 && sec > 0 {
				end -= time.Second // a late record: counted in the earliest second still open
			}
			r := request(i, end)
			scen, d := int32(i%2), r.Duration+time.Duration(i%3)*time.Microsecond
			two.Sink(i).Request(&r)
			two.Sink(i).Iteration(scen, r.End, d)
			r2 := r
			one.Sink(i).(sample.LastRequestSink).RequestIteration(&r2, scen, d)
		}
		a, b := two.Collect(sec), one.Collect(sec)
		if a == nil || b == nil || len(a.Endpoints) == 0 {
			t.Fatalf("second %d: no snapshot (%v, %v)", sec, a, b)
		}
		if got, want := roundTrip(t, b), roundTrip(t, a); !reflect.DeepEqual(got, want) {
			t.Errorf("second %d: one call recorded\n%+v\ntwo calls\n%+v", sec, got, want)
		}
		var iters int64
		for _, s := range b.Scenarios {
			iters += s.Iterations
		}
		if iters == 0 {
			t.Errorf("second %d: no iterations recorded", sec)
		}
	}
}

func TestRequestIterationRejectsUnknownIDs(t *testing.T) {
	for name, r := range map[string]struct {
		endpoint, scenario int32
	}{"endpoint": {3, 0}, "scenario": {0, 2}} {
		t.Run(name, func(t *testing.T) {
			rec := NewRecorder(testLayout(), 1)
			defer func() {
				if recover() == nil {
					t.Error("recording an id outside the layout did not panic")
				}
			}()
			rec.Sink(0).(sample.LastRequestSink).RequestIteration(&sample.Request{Endpoint: r.endpoint}, r.scenario, 0)
		})
	}
}
