package estimaterun

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/app"
	"github.com/loadlens/loadlens/internal/capacity"
	"github.com/loadlens/loadlens/internal/estimate"
	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/store"
	"github.com/loadlens/loadlens/internal/threshold"
	"github.com/loadlens/loadlens/internal/units"
)

// The flow steps of a run of one session protocol, as writeProtocolRun writes it.
const (
	grpcStep = "      - grpc: grpc://127.0.0.1:1\n        method: a.B/C\n"
	wsStep   = "      - ws: ws://127.0.0.1:1/chat\n        send: [{text: hi}]\n        until: {json: $.ok, matches: yes}\n"
)

// protocolSecond is one second of a session protocol's run: n calls or
// sessions, each lasting d, a WebSocket session's reply within reply.
type protocolSecond struct {
	n     int
	d     time.Duration
	reply time.Duration
}

// writeProtocolRun writes the run.db of a test of one step, judged by
// defs: 20 seconds like good, every fourth like bad.
func writeProtocolRun(t *testing.T, step string, defs []threshold.Threshold, good, bad protocolSecond) string {
	t.Helper()
	src := "scenarios:\n  s:\n    model: arrival-rate\n    rate: 10\n    duration: 1s\n    flow:\n" + step
	p, err := plan.Parse("f.yaml", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	w, err := store.Create(filepath.Join(dir, "run.db"), store.Meta{ID: "f", Name: "f", Version: "test", Start: time.Unix(1e9, 0),
		Layout: p.Layout, Extra: map[string]string{"thresholds": app.EncodeThresholds(defs)}})
	if err != nil {
		t.Fatal(err)
	}
	for sec := range 20 {
		s := good
		if sec%4 == 3 {
			s = bad
		}
		snap := metrics.NewSnapshot(sec, p.Layout)
		es := &snap.Endpoints[0]
		es.Duration, es.Waiting = metrics.NewHist(), metrics.NewHist()
		facts := &metrics.FactFigures{FirstMsg: metrics.NewHist(), Session: metrics.NewHist(), Gap: metrics.NewHist(), Reply: metrics.NewHist(),
			Sessions: int64(s.n), MsgsSent: int64(s.n), MsgsReceived: int64(s.n)}
		for range s.n {
			es.Duration.Record(s.d)
			es.Waiting.Record(s.d)
			facts.Session.Record(s.d)
			facts.FirstMsg.Record(s.d)
			if s.reply > 0 {
				facts.Reply.Record(s.reply)
			}
		}
		es.Requests, es.Facts = int64(s.n), facts
		if err := w.WriteSecond(snap); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Finish(store.Finish{End: time.Unix(1e9+20, 0), Status: app.StatusCompleted, Elapsed: 20 * time.Second}); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestEstimateFromASessionProtocolsRun: a run of gRPC calls or WebSocket
// sessions is judged, second by second, on its SLO's own latency
// (grpc_req_duration, ws_reply_time), and planned in calls/s or
// sessions/s. Before, only http_req_duration was judged: a gRPC run's
// grpc_req_duration was set aside and every second "met" the starter
// test's p(95) < 1s, and a WebSocket run was judged on how long its
// sessions stayed open (5s here), so no second met it.
func TestEstimateFromASessionProtocolsRun(t *testing.T) {
	ms := time.Millisecond
	tests := []struct {
		name      string
		step      string
		defs      []string
		good, bad protocolSecond
		want      []string
	}{
		{"gRPC on grpc_req_duration", grpcStep, []string{"grpc_req_duration", "p(95) < 100ms"},
			protocolSecond{400, 20 * ms, 0}, protocolSecond{400, 300 * ms, 0},
			[]string{"base rate given = 5,000 calls/s", "5,000 calls/s ÷ 400 calls/s per instance", "= 13 instances",
				"the successful calls of", "400 calls/s over the 14 of its steady part's 18 seconds that met the run's thresholds grpc_req_duration p(95) < 100ms"}},
		{"WebSocket on ws_reply_time, its sessions open 5s", wsStep, []string{"ws_reply_time", "p(95) < 100ms"},
			protocolSecond{400, 5 * time.Second, 20 * ms}, protocolSecond{400, 5 * time.Second, 300 * ms},
			[]string{"5,000 sessions/s ÷ 400 sessions/s per instance", "= 13 instances", "400 sessions/s over the 14 of its steady part's 18 seconds"}},
		{"WebSocket without thresholds: the starter test's p(95) on its replies", wsStep, nil,
			protocolSecond{400, 5 * time.Second, 20 * ms}, protocolSecond{400, 5 * time.Second, 300 * ms},
			[]string{"÷ at least 400 sessions/s per instance", "within ws_reply_time p(95) < 1s and errors < 1% (the starter test's"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var defs []threshold.Threshold
			for i := 0; i+1 < len(tc.defs); i += 2 {
				th, err := threshold.New(tc.defs[i], tc.defs[i+1])
				if err != nil {
					t.Fatal(err)
				}
				defs = append(defs, th)
			}
			dir := writeProtocolRun(t, tc.step, defs, tc.good, tc.bad)
			var out bytes.Buffer
			if err := Estimate(EstimateConfig{Input: estimate.Input{RPS: 5000}, FromRun: dir, Out: &out}); err != nil {
				t.Fatal(err)
			}
			flat := strings.Join(strings.Fields(out.String()), " ")
			for _, want := range tc.want {
				if !strings.Contains(flat, want) {
					t.Errorf("want %q in:\n%s", want, out.String())
				}
			}
			if strings.Contains(flat, "req/s") || strings.Contains(flat, "request") {
				t.Errorf("req/s or requests in the estimate of a run without requests:\n%s", out.String())
			}
		})
	}
}

// TestEstimateFromASearchOfCalls: a capacity search of a gRPC test plans
// in calls/s, also from a capacity.json written before the unit was kept
// (its latency names the protocol); --write, which writes a test of HTTP
// requests, is refused for it.
func TestEstimateFromASearchOfCalls(t *testing.T) {
	tests := []struct {
		name  string
		cfg   capacity.Config
		write string
		want  string
	}{
		{"its unit", capacity.Config{RequestsPerIteration: 1, Unit: units.Calls}, "", "1,000 calls/s ÷ 80 calls/s per instance (the capacity search in"},
		{"an earlier build's", capacity.Config{RequestsPerIteration: 1, Latency: "grpc_req_duration"}, "", "80 iterations/s × 1 call = 80 calls/s over 1 instance"},
		{"sessions", capacity.Config{RequestsPerIteration: 2, Unit: units.Sessions}, "", "1,000 sessions/s ÷ 160 sessions/s per instance"},
		{"--write", capacity.Config{RequestsPerIteration: 1, Unit: units.Calls}, "t.yaml", "--write writes a starter test of HTTP requests, but --from-run"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			b, err := json.Marshal(capacity.Result{Config: tc.cfg, Highest: 80, LowestFailing: 90})
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "capacity.json"), b, 0o644); err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			cfg := EstimateConfig{Input: estimate.Input{RPS: 1000}, FromRun: dir, URL: "http://127.0.0.1:1/", Out: &out}
			if tc.write != "" {
				cfg.Write = filepath.Join(dir, tc.write)
			}
			err = Estimate(cfg)
			text := out.String()
			if tc.write != "" {
				if err == nil {
					t.Fatalf("--write of a search of calls: no error")
				}
				text = err.Error()
			} else if err != nil {
				t.Fatal(err)
			}
			if flat := strings.Join(strings.Fields(text), " "); !strings.Contains(flat, tc.want) {
				t.Errorf("want %q in:\n%s", tc.want, text)
			}
		})
	}
}
