package otlp

import (
	"bytes"
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/spans"
)

// TestImpossibleSpansAreRefused offers the run's store spans whose times
// cannot be a request's of the run: each is counted and dropped, and
// spans of real requests (on a clock some minutes off too) are kept.
func TestImpossibleSpansAreRefused(t *testing.T) {
	now := time.Now()
	epoch := time.Unix(0, 0)
	tests := []struct {
		name       string
		start, end time.Time
		refused    bool
	}{
		{"a server span ending 5 s before it starts", now, now.Add(-5 * time.Second), true},
		{"a span lasting 292 years", time.Unix(0, 1), time.Unix(0, math.MaxInt64), true},
		{"an end of 2^64-1 ns, read as before 1970", time.Unix(0, 1), time.Unix(0, -1), true},
		{"a start before 1970", time.Unix(0, -5e9), time.Unix(0, -4e9), true},
		{"a start an hour before the run", now.Add(-time.Hour), now.Add(-time.Hour + time.Millisecond), true},
		{"an end an hour from now", now.Add(time.Hour), now.Add(time.Hour + time.Millisecond), true},
		{"longer than the run so far", now.Add(-40 * time.Second), now, true},
		{"a 14 ms span of the run", now.Add(-14 * time.Millisecond), now, false},
		{"a span of a clock 5 minutes ahead", now.Add(5 * time.Minute), now.Add(5*time.Minute + time.Millisecond), false},
		{"a span without times", epoch, epoch, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := store{maxSpans: 100, maxBytes: 1 << 20}
			st.reset(Join{Lookup: func(sample.TraceID) (int32, bool) { return 0, true }, Endpoints: 1})
			st.joined = now.Add(-20 * time.Second) // the run began 20 s ago
			st.add([]spans.Span{{Trace: sample.TraceID{1}, Start: tt.start, End: tt.end}}, now)
			if refused := st.stats.Impossible == 1 && len(st.kept) == 0; refused != tt.refused || st.stats.Impossible+len(st.kept) != 1 {
				t.Errorf("impossible %d, kept %d; want refused %v", st.stats.Impossible, len(st.kept), tt.refused)
			}
		})
	}
}

// TestReceiverCountsImpossibleSpans posts the trial's hostile export as
// JSON: a server span that ends 5 s before it starts and a database span
// from 1 ns to 2^64-1 ns. Neither may reach the join; both are counted.
func TestReceiverCountsImpossibleSpans(t *testing.T) {
	r, err := Listen("127.0.0.1:0", Options{Spans: 100})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	r.Join(Join{Lookup: func(sample.TraceID) (int32, bool) { return 0, true }, Endpoints: 1})
	now := time.Now().UnixNano()
	tid := "0af7651916cd43dd8448eb211c80319c"
	body := fmt.Sprintf(`{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"evil"}}]},"scopeSpans":[{"spans":[
{"traceId":"%s","spanId":"0000000000000001","parentSpanId":"00000000000000b7","name":"GET /h","kind":2,"startTimeUnixNano":"%d","endTimeUnixNano":"%d"},
{"traceId":"%s","spanId":"0000000000000002","parentSpanId":"0000000000000001","name":"db","kind":3,"startTimeUnixNano":"1","endTimeUnixNano":"18446744073709551615"},
{"traceId":"%s","spanId":"0000000000000003","parentSpanId":"0000000000000001","name":"ok","kind":3,"startTimeUnixNano":"%d","endTimeUnixNano":"%d"}]}]}]}`,
		tid, now, now-5e9, tid, tid, now-2e6, now-1e6)
	if code, msg := post(t, r.Endpoint()+Path, "application/json", "", bytes.NewReader([]byte(body)), int64(len(body))); code != 200 {
		t.Fatalf("status %d %s", code, msg)
	}
	got, st := r.Spans()
	if st.Impossible != 2 || len(got) != 1 || got[0].Name != "ok" {
		t.Errorf("kept %d spans, stats %+v; want the one possible span kept and 2 impossible", len(got), st)
	}
}
