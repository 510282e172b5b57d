package store

import (
	"reflect"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/spans"
)

func tid(b byte) sample.TraceID { return sample.TraceID{1, 15: b} }

func TestTracesRoundTrip(t *testing.T) {
	w, path := create(t, 2)
	in := &Traces{
		Slowest: [][]spans.Kept{{{Endpoint: 0, Trace: tid(1), Sampled: true, Sec: 1, Duration: 9 * time.Millisecond, Status: 200}}, nil},
		Failed:  [][]spans.Kept{nil, {{Endpoint: 1, Trace: tid(2), Sec: 0, Duration: time.Second, Status: 503, Failed: true, Err: "503 Service Unavailable"}}},
		Joined: []spans.Trace{
			{Request: spans.Request{Trace: tid(1), Endpoint: 0, Sec: 1, Duration: 9 * time.Millisecond}, Server: 8 * time.Millisecond,
				Parts: []spans.Part{{Kind: spans.PartDB, Name: "SELECT 1", Span: "select", Time: 5 * time.Millisecond},
					{Kind: spans.PartService, Time: 3 * time.Millisecond}, {Kind: spans.PartOutside, Time: time.Millisecond}}},
			{Request: spans.Request{Trace: tid(3), Endpoint: 0, Sec: 1, Duration: 3 * time.Millisecond}, Server: 3 * time.Millisecond,
				Parts: []spans.Part{{Kind: spans.PartService, Time: 3 * time.Millisecond}}},
		},
		Statements: []spans.Statement{{Endpoint: 0, Kind: spans.PartDB, System: "postgresql", Name: "SELECT 1", Span: "select", Calls: 1,
			Total: 5 * time.Millisecond, Max: 5 * time.Millisecond}},
		Stats: spans.Stats{Receiver: true, Sampled: 2, Spans: 3, Exports: 1, Impossible: 2},
	}
	if err := w.WriteTraces(in); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	got, err := open(t, path).Traces()
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, in) {
		t.Errorf("read back\n%+v\nwant\n%+v", got, in)
	}
	// the per-second breakdown the CLI reads: second 1 of endpoint 0 averages the two traces
	var mean int64
	var traces int
	if err := rawDB(t, path).QueryRow(`SELECT mean_ns, traces FROM trace_seconds WHERE sec = 1 AND endpoint = 0 AND part = 'service'`).Scan(&mean, &traces); err != nil {
		t.Fatal(err)
	}
	if mean != int64(3*time.Millisecond) || traces != 2 {
		t.Errorf("trace_seconds: service mean %d ns over %d traces, want 3 ms over 2", mean, traces)
	}
}

func TestNoTraces(t *testing.T) {
	w, path := create(t, 1)
	w.Close()
	if got, err := open(t, path).Traces(); got != nil || err != nil {
		t.Errorf("a run without traces reads %+v, %v", got, err)
	}
	// a file written before the trace tables existed
	exec1(t, path, `DROP TABLE trace_stats`)
	if got, err := open(t, path).Traces(); got != nil || err != nil {
		t.Errorf("a file without the tables reads %+v, %v", got, err)
	}
}
