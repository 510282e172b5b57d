package diagnose

import (
	"strings"
	"testing"
)

// TestFigureLabelsSayTheProtocolsWords: the labels of a gRPC or WebSocket
// run's figures (Figure.What, which the findings JSON and report.html show
// beside each number) say calls or sessions, as its titles do, and no
// "{requests}" is left unworded ("requests offered while behind" read so
// on a gRPC run); an HTTP run's say requests.
func TestFigureLabelsSayTheProtocolsWords(t *testing.T) {
	fixtures := map[string]func(*testing.T) Input{
		"erroring": erroring, "overloaded": overloaded, "dropping": dropping, "droppingSlow": droppingSlow,
		"rampPastCapacity": rampPastCapacity, "timedOutCheck": timedOutCheck, "cpuHeldDrops": cpuHeldDrops,
		"shedding": shedding(false), "lockStep": lockStep, "twoEndpointOverload": twoEndpointOverload,
		"healthyRamp": healthyRamp,
	}
	for _, p := range []struct{ protocol, word, never string }{{"grpc", "calls", "request"}, {"ws", "sessions", "request"}, {"", "requests", "calls"}} {
		seen := false
		for fname, fix := range fixtures {
			in := asProtocol(p.protocol, fix)(t)
			fs := Diagnose(in)
			var figs []Figure
			for _, f := range fs {
				figs = append(figs, f.Figures...)
			}
			if v := Healthy(in, fs); v != nil {
				figs = append(figs, v.Figures...)
			}
			for _, fg := range figs {
				w := strings.ToLower(fg.What)
				if strings.Contains(w, "{") && !strings.Contains(w, "{expected_response") {
					t.Errorf("%s as %q: unworded label %q", fname, p.protocol, fg.What)
				}
				if strings.Contains(w, p.never) && !serverWords(w) {
					t.Errorf("%s as %q: label %q says %q", fname, p.protocol, fg.What, p.never)
				}
				seen = seen || strings.Contains(w, p.word)
			}
		}
		if !seen {
			t.Errorf("%q: no figure label says %q", p.protocol, p.word)
		}
	}
}

// serverWords are labels of the target's own requests, which its protocol
// does not rename: a pool's waiters, the pods' CPU requests.
func serverWords(w string) bool {
	return strings.Contains(w, "waiting for a connection") || strings.Contains(w, "cpu requests")
}

// TestBimodalOutcomeRemediesNameTheProtocolsMetric: two latency modes that
// may be failures and successes point a gRPC run to grpc_req_duration, which
// has no expected_response filter, not to http_req_duration{expected_response:
// true}, which holds no call; an HTTP run keeps that threshold.
func TestBimodalOutcomeRemediesNameTheProtocolsMetric(t *testing.T) {
	for _, tt := range []struct {
		protocol    string
		want, never []string
	}{
		{"grpc", []string{"% of calls at ~", "failed calls (UNAVAILABLE", "grpc_req_duration times the failed calls too"}, []string{"http_req_duration", "request"}},
		{"", []string{"% of requests at ~", "a threshold on http_req_duration{expected_response:true}"}, []string{"grpc_req_duration"}},
	} {
		var text string
		for _, f := range Diagnose(asProtocol(tt.protocol, shedding(false))(t)) {
			if f.Kind == KindBimodalLatency {
				text += title(f) + "\n" + strings.Join(f.Remedies, "\n") + "\n"
			}
		}
		if text == "" {
			t.Fatalf("%q: no bimodal finding", tt.protocol)
		}
		for _, w := range tt.want {
			if !strings.Contains(text, w) {
				t.Errorf("%q lacks %q:\n%s", tt.protocol, w, text)
			}
		}
		for _, n := range tt.never {
			if strings.Contains(text, n) {
				t.Errorf("%q says %q:\n%s", tt.protocol, n, text)
			}
		}
	}
}
