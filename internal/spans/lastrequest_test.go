package spans

import (
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/sample"
)

// countSink counts what reaches it; with both set it takes requests and
// their iterations in one call.
type countSink struct {
	nopSink
	requests, iterations, both int
}

func (c *countSink) Request(*sample.Request)                       { c.requests++ }
func (c *countSink) Iteration(int32, time.Duration, time.Duration) { c.iterations++ }

type bothSink struct{ *countSink }

func (b bothSink) RequestIteration(*sample.Request, int32, time.Duration) { b.both++ }

type oneSink struct{ s sample.Sink }

func (o oneSink) Sink(int) sample.Sink { return o.s }

// TestKeepSinkForwardsRequestIteration: a request recorded with its
// iteration reaches the recorder's sink in one call where it can take it,
// as two otherwise, and is offered to the keeper either way.
func TestKeepSinkForwardsRequestIteration(t *testing.T) {
	for _, tt := range []struct {
		name              string
		both              bool
		wantReq, wantBoth int
	}{{"sink takes both", true, 0, 1}, {"sink takes one at a time", false, 1, 0}} {
		t.Run(tt.name, func(t *testing.T) {
			cs := &countSink{}
			var inner sample.Sink = cs
			if tt.both {
				inner = bothSink{cs}
			}
			k := NewKeeper(1, 4, 5, 100)
			s, ok := k.Wrap(oneSink{inner}).Sink(0).(sample.LastRequestSink)
			if !ok {
				t.Fatal("the keeper's sink does not take a request with its iteration")
			}
			s.RequestIteration(&sample.Request{Trace: id(1), Kind: sample.HTTP5xx, Status: 503, Err: "503"}, 0, time.Millisecond)
			if cs.requests != tt.wantReq || cs.iterations != tt.wantReq || cs.both != tt.wantBoth {
				t.Errorf("requests %d, iterations %d, both %d; want %d, %d, %d", cs.requests, cs.iterations, cs.both, tt.wantReq, tt.wantReq, tt.wantBoth)
			}
			if f := k.Failed(); len(f) == 0 || len(f[0]) != 1 {
				t.Errorf("the failed request was not kept: %+v", f)
			}
		})
	}
}
