package compare

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/sample"
)

// sessionSynth is a synthetic run of an HTTP endpoint beside a WebSocket
// one: each second some sessions end, each with a time to first message,
// a length and messages received drawn around the given medians, with a
// slowness that drifts from second to second as synth's does.
type sessionSynth struct {
	seed       uint64
	seconds    int
	sessions   int     // ended per second
	firstMs    float64 // median time to first message
	lengthMs   float64 // median session length
	msgs       float64 // mean messages received per session
	unavailShr float64 // share of sessions that end UNAVAILABLE
	replyMs    float64 // median reply time (a WebSocket until:); 0: none measured
}

func (s sessionSynth) layout() sample.Layout {
	return sample.Layout{
		Scenarios: []sample.ScenarioInfo{{Name: "chat", Model: "arrival-rate"}},
		Endpoints: []sample.EndpointInfo{
			{Scenario: 0, Name: "GET /rooms", Method: "GET"},
			{Scenario: 0, Name: "ws /chat", Method: "WS", Protocol: "ws"},
		},
	}
}

func (s sessionSynth) input(name string) Input {
	layout := s.layout()
	rng := newRand(s.seed)
	run := metrics.NewRun(layout)
	var snaps []*metrics.Snapshot
	state := 0.0
	for sec := range s.seconds {
		state = 0.7*state + 0.05*rng.NormFloat64()
		snap := metrics.NewSnapshot(sec, layout)
		http := &snap.Endpoints[0]
		http.Duration, http.Waiting = metrics.NewHist(), metrics.NewHist()
		for range 50 {
			d := time.Duration(10 * math.Exp(state+0.4*rng.NormFloat64()) * float64(time.Millisecond))
			http.Duration.Record(d)
			http.Waiting.Record(d / 2)
			http.Requests++
		}
		ws := &snap.Endpoints[1]
		ws.Duration, ws.Waiting = metrics.NewHist(), metrics.NewHist()
		f := &metrics.FactFigures{FirstMsg: metrics.NewHist(), Session: metrics.NewHist(), Gap: metrics.NewHist(), Reply: metrics.NewHist()}
		ws.Facts = f
		for range s.sessions {
			first := time.Duration(s.firstMs * math.Exp(state+0.3*rng.NormFloat64()) * float64(time.Millisecond))
			length := time.Duration(s.lengthMs * math.Exp(0.2*rng.NormFloat64()) * float64(time.Millisecond))
			msgs := int64(math.Round(s.msgs * math.Exp(0.2*rng.NormFloat64())))
			ws.Requests++
			ws.Duration.Record(length)
			ws.Waiting.Record(first)
			if rng.Float64() < s.unavailShr {
				ws.Failures[sample.GRPCUnavailable]++
			}
			f.Sessions++
			f.MsgsReceived += msgs
			f.FirstMsg.Record(first)
			f.Session.Record(length)
			if s.replyMs > 0 {
				f.Reply.Record(time.Duration(s.replyMs * math.Exp(state+0.3*rng.NormFloat64()) * float64(time.Millisecond)))
			}
		}
		run.Add(snap)
		snaps = append(snaps, snap)
	}
	return Input{Name: name, Run: run, Snapshots: func(fn func(*metrics.Snapshot) error) error {
		for _, sn := range snaps {
			if err := fn(sn); err != nil {
				return err
			}
		}
		return nil
	}}
}

func baseSessions(seed uint64) sessionSynth {
	return sessionSynth{seed: seed, seconds: 40, sessions: 40, firstMs: 20, lengthMs: 1000, msgs: 10, unavailShr: 0.01}
}

// findLine returns the line of metric m in the row named name.
func findLine(t *testing.T, r *Report, name string, m Metric) (Line, bool) {
	t.Helper()
	for _, row := range r.Rows {
		if row.Name != name {
			continue
		}
		for _, l := range row.Lines {
			if l.Metric == m {
				return l, true
			}
		}
	}
	return Line{}, false
}

func TestSessionFactsCompared(t *testing.T) {
	tests := []struct {
		name  string
		b     func(sessionSynth) sessionSynth
		worse []Metric // significant and worse; every other session line is "~"
	}{
		{"equal runs", func(s sessionSynth) sessionSynth { return s }, nil},
		{"time to first message doubled", func(s sessionSynth) sessionSynth { s.firstMs *= 2; return s }, []Metric{FirstMsgP50, FirstMsgP95}},
		{"sessions twice as long", func(s sessionSynth) sessionSynth { s.lengthMs *= 2; return s }, []Metric{LengthP50, LengthP95}},
		{"half the messages", func(s sessionSynth) sessionSynth { s.msgs /= 2; return s }, []Metric{MsgRate}},
		{"a fifth ended UNAVAILABLE", func(s sessionSynth) sessionSynth { s.unavailShr = 0.2; return s },
			[]Metric{StatusShare + Metric(sample.GRPCUnavailable)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := baseSessions(1).input("a")
			b := tt.b(baseSessions(2)).input("b")
			rep, err := Compare([]Input{a, b}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if l, ok := findLine(t, rep, "GET /rooms", FirstMsgP95); ok {
				t.Errorf("the HTTP endpoint's row has a session line: %+v", l)
			}
			for _, m := range []Metric{SessionRate, MsgRate, FirstMsgP50, FirstMsgP95, LengthP50, LengthP95, StatusShare + Metric(sample.GRPCUnavailable)} {
				l, ok := findLine(t, rep, "ws /chat", m)
				if !ok {
					t.Fatalf("no %s line in the WebSocket row", m)
				}
				v := l.Values[1]
				want := "~"
				for _, w := range tt.worse {
					if w == m {
						want = "worse"
					}
				}
				if v.Verdict != want {
					t.Errorf("%s: A %.3g, B %.3g: verdict %q (not tested: %q), want %q", m, l.Values[0].Value, v.Value, v.Verdict, v.NotTested, want)
				}
			}
		})
	}
}

// An HTTP-only comparison has no session lines: its rows hold the request
// figures only, and its JSON names none.
func TestSessionLinesOnlyWithSessions(t *testing.T) {
	a, b := synth{seed: 1, model: "arrival-rate", load: ramp(100, 2, 20, 1)}.input("a"), synth{seed: 2, model: "arrival-rate", load: ramp(100, 2, 20, 1)}.input("b")
	rep, err := Compare([]Input{a, b}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range rep.Rows {
		if len(row.Lines) != int(numMetrics) {
			t.Errorf("row %s has %d lines, want %d", row.Name, len(row.Lines), numMetrics)
		}
	}
	var buf bytes.Buffer
	if err := WriteJSON(&buf, rep); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), "first msg") {
		t.Error("an HTTP comparison's JSON names a session metric")
	}
}

// The session metrics' names read back from JSON, so that saved reports
// (bench history, CI artefacts) load.
func TestSessionMetricJSON(t *testing.T) {
	for _, m := range []Metric{SessionRate, MsgRate, FirstMsgP50, LengthP95, StatusShare + Metric(sample.GRPCDeadlineExceeded), StatusShare + Metric(sample.ConnReset)} {
		b, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		var got Metric
		if err := json.Unmarshal(b, &got); err != nil || got != m {
			t.Errorf("%s: read back %v, %v", b, got, err)
		}
	}
}

// TestSessionLinesSayWhatTheyCount: a session line's reason for not being
// tested names sessions or messages, not the requests its statistics were
// written for ("run a holds 80 requests; a p95 needs …").
func TestSessionLinesSayWhatTheyCount(t *testing.T) {
	s := baseSessions(1)
	s.seconds, s.sessions = 8, 2
	rep, err := Compare([]Input{s.input("a"), func() Input { b := s; b.seed = 2; return b.input("b") }()}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, m := range []Metric{SessionRate, MsgRate, FirstMsgP95, LengthP95} {
		l, ok := findLine(t, rep, "ws /chat", m)
		if !ok {
			continue
		}
		why := l.Values[1].NotTested
		if why == "" {
			continue
		}
		checked++
		if strings.Contains(why, "request") {
			t.Errorf("%s: %q speaks of requests", m, why)
		}
	}
	if checked == 0 {
		t.Fatal("no session line was left untested: the case tests nothing")
	}
	for _, tc := range []struct {
		why  string
		m    Metric
		want string
	}{
		{"run a holds 80 requests; a p95 needs 200 a run", FirstMsgP95, "run a holds 80 sessions; a p95 needs 200 a run"},
		{"fewer than 5 compared seconds with a request", MsgRate, "fewer than 5 compared seconds with a message"},
	} {
		if got := sessionWords(tc.why, tc.m); got != tc.want {
			t.Errorf("sessionWords(%q) = %q, want %q", tc.why, got, tc.want)
		}
	}
}
