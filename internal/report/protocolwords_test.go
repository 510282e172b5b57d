package report

import (
	"bytes"
	"math"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/series"
	"github.com/loadlens/loadlens/internal/units"
)

// TestCutOffAndAgentWordsFollowTheProtocol renders a gRPC and a WebSocket
// run whose end cut samples off, made by two agents: the cut-off line and
// the per-agent table count calls or sessions (units.ForProtocol), never
// requests, in the terminal and report.html; an HTTP run keeps its words.
func TestCutOffAndAgentWordsFollowTheProtocol(t *testing.T) {
	tests := []struct {
		name, protocol string
		want           []string // in the terminal's text, whitespace collapsed
		page           string   // in report.html
	}{
		{"gRPC", "grpc", []string{"3 calls were cut off by the end of the run (interrupted): they count as failed, and their durations are lower bounds (the time they had waited)",
			"ACHIEVED CALLS CPU", "a flow of several calls makes them differ from CALLS"}, "<th class=\"num\">CALLS</th>"},
		{"WebSocket", "ws", []string{"3 sessions were cut off by the end of the run (interrupted): they count as failed, and their durations are lower bounds (the time they had lasted)",
			"ACHIEVED SESSIONS CPU", "a flow of several sessions makes them differ from SESSIONS"}, "<th class=\"num\">SESSIONS</th>"},
		{"HTTP", "", []string{"3 requests were cut off by the end of the run (interrupted)", "ACHIEVED REQUESTS CPU",
			"a flow of several requests makes them differ from REQUESTS"}, "<th class=\"num\">REQUESTS</th>"},
	}
	httpWords := regexp.MustCompile(`(?i)\brequests?\b|\breq/s\b`)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := unitFixture(t, tc.protocol)
			in.Run.Endpoints[0].Failures[sample.Interrupted] += 3
			in.Agents = []Agent{
				{Name: "agent 1", Addr: "h1:6565", Segment: "0:1/2", Offered: math.NaN(), Achieved: 5, Over: time.Second, Requests: 5, Iters: 5, CPU: 0.1, LostAt: -1},
				{Name: "agent 2", Addr: "h2:6565", Segment: "1/2:1", Offered: math.NaN(), Achieved: 5, Over: time.Second, Requests: 5, Iters: 5, CPU: 0.1, LostAt: -1},
			}
			var b bytes.Buffer
			if err := WriteText(&b, in); err != nil {
				t.Fatal(err)
			}
			text := b.String()
			contains(t, "the summary", strings.Join(strings.Fields(text), " "), tc.want)
			if tc.protocol != "" {
				for _, line := range strings.Split(text, "\n") {
					if (strings.Contains(line, "cut off") || strings.Contains(line, "ACHIEVED") || strings.Contains(line, "OFFERED")) && httpWords.MatchString(line) {
						t.Errorf("a %s run's line says %q: %s", tc.name, httpWords.FindString(line), line)
					}
				}
			}
			b.Reset()
			if err := WriteHTML(&b, in); err != nil {
				t.Fatal(err)
			}
			contains(t, "report.html", b.String(), []string{tc.page})
		})
	}
}

// TestAgentChartsFollowTheProtocol: report.html's and the live dashboard's
// per-agent charts of a gRPC or WebSocket run count its calls or sessions.
func TestAgentChartsFollowTheProtocol(t *testing.T) {
	for _, tc := range []struct {
		u          units.Unit
		reqs, errs string
	}{
		{units.Calls, "Per agent: calls per second", "Per agent: failed calls per second"},
		{units.Sessions, "Per agent: sessions per second", "Per agent: failed sessions per second"},
		{units.Requests, "Per agent: requests per second", "Per agent: failed requests per second"},
	} {
		sd := NewSeriesDescriber(tc.u)
		reqs := sd.Describe(0, &series.Series{Name: "loadlens_agent_requests", Kind: series.Rate})
		errs := sd.Describe(1, &series.Series{Name: "loadlens_agent_errors", Kind: series.Rate})
		if reqs.Title != tc.reqs || errs.Title != tc.errs {
			t.Errorf("%s: charts %q and %q, want %q and %q", tc.u.Many, reqs.Title, errs.Title, tc.reqs, tc.errs)
		}
	}
}
