package compare

import (
	"strings"
	"testing"
)

// TestParseSessionGates: a gate names a session line as the table does.
// Before, 'first msg p95 +10%' was refused as the unknown metric "first".
func TestParseSessionGates(t *testing.T) {
	tests := []struct {
		expr    string
		want    Gate
		wantErr string
	}{
		{expr: "first msg p95 +10%", want: Gate{Metric: FirstMsgP95, Sign: 1, Amount: 10, Relative: true}},
		{expr: "First Msg P50 +20ms", want: Gate{Metric: FirstMsgP50, Sign: 1, Amount: 20}},
		{expr: `first msg p95{endpoint:"WS /chat"} +50ms`, want: Gate{Metric: FirstMsgP95, Endpoint: "WS /chat", Sign: 1, Amount: 50, Relative: false}},
		{expr: "length p95 +1s", want: Gate{Metric: LengthP95, Sign: 1, Amount: 1000}},
		{expr: "reply p95 +10%", want: Gate{Metric: ReplyP95, Sign: 1, Amount: 10, Relative: true}},
		{expr: "reply p50 +5ms", want: Gate{Metric: ReplyP50, Sign: 1, Amount: 5}},
		{expr: "sessions/s -5%", want: Gate{Metric: SessionRate, Sign: -1, Amount: 5, Relative: true}},
		{expr: "sessions/s -10 session/s", want: Gate{Metric: SessionRate, Sign: -1, Amount: 10}},
		{expr: "msgs received/s -100/s", want: Gate{Metric: MsgRate, Sign: -1, Amount: 100}},
		{expr: "msgs received/s -100 msg/s", want: Gate{Metric: MsgRate, Sign: -1, Amount: 100}},
		{expr: "msgs received/s -100 req/s", wantErr: `unit "req/s" is not % or msg/s`},
		{expr: "first msg p95 +10", wantErr: "has no unit"},
		{expr: "first msgs p95 +10%", wantErr: `unknown metric "first": use p(50), med, p(95), p(99), req/s, errors or checks; for session endpoints also sessions/s, msgs received/s, first msg p50, first msg p95, length p50, length p95, reply p50, reply p95`},
		{expr: "sessions/sx -1%", wantErr: "unknown metric"},
		{expr: "İİİİİİİİİİİİİİİİİİİİ +1%", wantErr: "unknown metric"}, // a name whose lower case is shorter
	}
	for _, tc := range tests {
		t.Run(tc.expr, func(t *testing.T) {
			g, err := ParseGate(tc.expr)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			g.Expr = ""
			if g != tc.want {
				t.Fatalf("got %+v, want %+v", g, tc.want)
			}
		})
	}
}

// TestGatesOnSessionLines: a gate on a session line judges that line of
// the endpoint it names (or of every endpoint), its reason in sessions or
// messages; on a comparison without sessions it fails, saying so.
func TestGatesOnSessionLines(t *testing.T) {
	a := baseSessions(1).input("a")
	slower := baseSessions(2)
	slower.firstMs *= 2
	fewer := baseSessions(3)
	fewer.msgs /= 2
	tests := []struct {
		name       string
		b          Input
		gate       string
		wantFailed bool
		wantReason string
	}{
		{"time to first message doubled", slower.input("b"), `first msg p95{endpoint:"ws /chat"} +20%`, true, "first msg p95 +"},
		{"time to first message the same", baseSessions(4).input("b"), `first msg p95{endpoint:"ws /chat"} +50%`, false, "is within +50%"},
		{"half the messages", fewer.input("b"), `msgs received/s{endpoint:"ws /chat"} -20%`, true, "goes past -20%"},
		{"an absolute fall in messages", fewer.input("b"), `msgs received/s{endpoint:"ws /chat"} -50/s`, true, "goes past -50 msg/s"},
		{"the same messages", baseSessions(5).input("b"), `msgs received/s{endpoint:"ws /chat"} -20%`, false, "is within -20%"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rep, err := Compare([]Input{a, tc.b}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			g, err := ParseGate(tc.gate)
			if err != nil {
				t.Fatal(err)
			}
			res := rep.Check([]Gate{g})
			if len(res) != 1 || res[0].Failed != tc.wantFailed || res[0].NotJudged || !strings.Contains(res[0].Reason, tc.wantReason) {
				t.Fatalf("%s: %+v; want failed %v, judged, reason containing %q", tc.gate, res, tc.wantFailed, tc.wantReason)
			}
			t.Logf("%s: %s", tc.gate, res[0].Reason)
			if strings.Contains(res[0].Reason, "request") {
				t.Errorf("a session line's reason speaks of requests: %s", res[0].Reason)
			}
		})
	}
	// Without session endpoints there is no such line: the gate fails, saying so.
	h1, h2 := synth{seed: 1, model: "arrival-rate", load: ramp(100, 2, 20, 1)}.input("a"), synth{seed: 2, model: "arrival-rate", load: ramp(100, 2, 20, 1)}.input("b")
	rep, err := Compare([]Input{h1, h2}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	g, _ := ParseGate("first msg p95 +10%")
	res := rep.Check([]Gate{g})
	if len(res) != 1 || !res[0].Failed || !strings.Contains(res[0].Reason, "no session step in all endpoints") {
		t.Fatalf("a session gate on an HTTP comparison: %+v; want it failed, saying there is no session step", res)
	}
}

// TestReplyLines: the reply time (a WebSocket until:'s) is a line of the
// rows whose sessions measured one, judged as p50 and p95, and a gate.
// Before, compare had no such line, so a WebSocket test's own latency
// could not gate a change.
func TestReplyLines(t *testing.T) {
	base := baseSessions(1)
	base.replyMs = 15
	slower := baseSessions(2)
	slower.replyMs = 30
	same := baseSessions(3)
	same.replyMs = 15
	for _, tc := range []struct {
		name      string
		b         sessionSynth
		wantWorse bool
		gateFails bool
	}{{"replies twice as slow", slower, true, true}, {"replies as fast", same, false, false}} {
		t.Run(tc.name, func(t *testing.T) {
			rep, err := Compare([]Input{base.input("a"), tc.b.input("b")}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range []Metric{ReplyP50, ReplyP95} {
				l, ok := findLine(t, rep, "ws /chat", m)
				if !ok {
					t.Fatalf("no %s line in the WebSocket row", m)
				}
				if worse := l.Values[1].Verdict == "worse"; worse != tc.wantWorse {
					t.Errorf("%s: A %.3g, B %.3g: verdict %q, want worse %v", m, l.Values[0].Value, l.Values[1].Value, l.Values[1].Verdict, tc.wantWorse)
				}
			}
			g, err := ParseGate(`reply p95{endpoint:"ws /chat"} +25%`)
			if err != nil {
				t.Fatal(err)
			}
			res := rep.Check([]Gate{g})
			if len(res) != 1 || res[0].Failed != tc.gateFails || res[0].NotJudged {
				t.Fatalf("gate %s: %+v, want failed %v", g.Expr, res, tc.gateFails)
			}
		})
	}
	// Sessions without a reply (no until:) have no reply line.
	rep, err := Compare([]Input{baseSessions(1).input("a"), baseSessions(2).input("b")}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if l, ok := findLine(t, rep, "ws /chat", ReplyP95); ok {
		t.Errorf("a reply line without replies: %+v", l)
	}
}
