package diagnose

import (
	"strings"
	"testing"
	"time"
)

// TestLatencyShapeLeavesSessionsOut: a session's length is what it was
// held for (an sse: step's duration: 2s), not a slow mode of the run's
// latency (trial s35, defect 5: "80% at ~7.30ms, the rest at ~2.00s").
func TestLatencyShapeLeavesSessionsOut(t *testing.T) {
	fast := reqs{ep: 0, n: 400, dur: even(7300*time.Microsecond, 0.4)}
	held := reqs{ep: 1, n: 100, dur: even(2*time.Second, 0.01)}
	cases := []struct {
		name    string
		session bool // endpoint 1 is an SSE session rather than an HTTP request
		first   reqs
		want    string // a bimodal-latency finding's title contains it; "": none
	}{
		{"fast requests and 2 s sessions", true, fast, ""},
		{"the same durations as HTTP requests are a slow endpoint", false, fast, "SSE /events"},
		{"a real bimodal HTTP latency beside the sessions", true,
			reqs{ep: 0, n: 400, dur: twoPeaks(2*time.Millisecond, 48*time.Millisecond, 0.6)}, "60% of requests at ~2.00ms, the rest at ~48"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			l := layout(modelVUs, "GET /items", "SSE /events")
			if tc.session {
				l.Endpoints[1].Protocol, l.Endpoints[1].Session = "sse", true
			}
			secs := make([]sec, 10)
			for i := range secs {
				secs[i] = sec{vus: 5, reqs: []reqs{tc.first, held}}
			}
			var titles []string
			for _, f := range Diagnose(Input{Run: build(t, l, secs)}) {
				if f.Kind == KindBimodalLatency {
					titles = append(titles, title(f))
				}
			}
			switch {
			case tc.want == "" && len(titles) > 0:
				t.Errorf("bimodal-latency on sessions' lengths: %q", titles)
			case tc.want != "" && !strings.Contains(strings.Join(titles, "\n"), tc.want):
				t.Errorf("bimodal-latency = %q, want one with %q", titles, tc.want)
			}
		})
	}
}
