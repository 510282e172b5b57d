package report

import (
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/sample"
)

// TestDashboardFeedCarriesSessions: the dashboard's per-second endpoint
// table (and the end event's) carries each session endpoint's facts and
// statuses under "sessions", decoded here by the JSON names the page
// reads; an HTTP-only run's table has no such key, as before.
func TestDashboardFeedCarriesSessions(t *testing.T) {
	in := sessionsFixture(t) // 2 s: GET /x, SSE /feed, WS /chat, gRPC Echo/Say (its first message at 0)
	type row struct {
		I        int     `json:"i"`
		Proto    string  `json:"proto"`
		N        int64   `json:"n"`
		Tx       int64   `json:"tx"`
		Rx       int64   `json:"rx"`
		RxPS     float64 `json:"rxps"`
		First95  *float64
		Reply95  *float64
		Statuses []StatusCount `json:"st"`
	}
	ms := func(v float64) *float64 { return &v }
	want := []row{
		{I: 1, Proto: "sse", N: 2, Rx: 6, RxPS: 3, First95: ms(20), Statuses: []StatusCount{{"OK", 2}}},
		{I: 2, Proto: "ws", N: 2, Tx: 4, Rx: 4, RxPS: 2, First95: ms(3), Reply95: ms(5), Statuses: []StatusCount{{"OK", 1}, {"http_4xx", 1}}},
		{I: 3, Proto: "grpc", N: 10, Tx: 10, Rx: 10, RxPS: 5, First95: ms(0), Statuses: []StatusCount{{"OK", 6}, {"UNAVAILABLE", 3}, {"DEADLINE_EXCEEDED", 1}}},
	}
	for _, tc := range []struct {
		name  string
		table EndpointTable
	}{{"each second", NewEndpointTable(in.Run)}, {"end", NewFinal(in, "report.html").Endpoints}} {
		b, err := json.Marshal(tc.table)
		if err != nil {
			t.Fatal(err)
		}
		var got struct {
			Sessions []map[string]json.RawMessage `json:"sessions"`
		}
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatal(err)
		}
		if len(got.Sessions) != len(want) {
			t.Fatalf("%s: %d session rows, want %d: %s", tc.name, len(got.Sessions), len(want), b)
		}
		for k, raw := range got.Sessions {
			var r row
			whole, _ := json.Marshal(raw)
			if err := json.Unmarshal(whole, &r); err != nil {
				t.Fatal(err)
			}
			r.First95, r.Reply95 = msField(t, raw, "first95"), msField(t, raw, "reply95")
			w := want[k]
			if r.I != w.I || r.Proto != w.Proto || r.N != w.N || r.Tx != w.Tx || r.Rx != w.Rx || r.RxPS != w.RxPS ||
				!reflect.DeepEqual(r.Statuses, w.Statuses) || !nearPtr(r.First95, w.First95) || !nearPtr(r.Reply95, w.Reply95) {
				t.Errorf("%s: row %d = %s\nwant %+v (first95 %v, reply95 %v)", tc.name, k, whole, w, deref(w.First95), deref(w.Reply95))
			}
		}
	}

	layout := sample.Layout{Scenarios: []sample.ScenarioInfo{{Name: "s"}}, Endpoints: []sample.EndpointInfo{{Name: "GET /x", Method: "GET"}}}
	rec := metrics.NewRecorder(layout, 1)
	rec.Sink(0).Request(&sample.Request{End: time.Second / 2, Duration: time.Millisecond, Status: 200})
	run := metrics.NewRun(layout)
	run.Add(rec.Collect(0))
	if b, _ := json.Marshal(NewEndpointTable(run)); strings.Contains(string(b), "sessions") {
		t.Errorf("an HTTP-only run's table carries sessions: %s", b)
	}
}

// msField reads an optional number of milliseconds; nil when absent.
func msField(t *testing.T, raw map[string]json.RawMessage, key string) *float64 {
	t.Helper()
	v, ok := raw[key]
	if !ok {
		return nil
	}
	var f float64
	if err := json.Unmarshal(v, &f); err != nil {
		t.Fatalf("%s: %v", key, err)
	}
	return &f
}

// nearPtr: both absent, or within the histograms' 1 % of each other.
func nearPtr(a, b *float64) bool {
	if a == nil || b == nil {
		return a == b
	}
	return math.Abs(*a-*b) <= 0.01**b
}

func deref(p *float64) any {
	if p == nil {
		return nil
	}
	return *p
}
