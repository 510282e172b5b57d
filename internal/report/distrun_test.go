package report

import (
	"bytes"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/threshold"
)

// TestLostAgentSaysWhatIsNotCounted: a lost agent's note says what of its
// load the figures lack: what it may have sent after its last second
// received, which it could not report (up to its segment's planned
// iterations in that time), and what it never offered.
func TestLostAgentSaysWhatIsNotCounted(t *testing.T) {
	for _, tc := range []struct {
		name string
		a    Agent
		want string
		not  string // must not be said
	}{
		{"killed mid-second (open model)", Agent{LostAt: 3, LostSeen: 3660 * time.Millisecond, LostPlan: 700, Unreported: 66, LostWhy: "its connection ended (EOF)"},
			"was lost at 0:03: its connection ended (EOF); its seconds before that are kept, and the 700 planned iterations of its segment from then on are not in these figures: " +
				"up to 66 of them, due in the 660ms before it was found lost, may have reached the target uncounted, the rest were not offered", ""},
		{"silent to the end of its plan", Agent{LostAt: 8, LostSeen: 13100 * time.Millisecond, LostPlan: 200, Unreported: 200, LostWhy: "it fell silent for 5.00s"},
			"the 200 planned iterations of its segment from then on are not in these figures: all were due in the 5.10s before it was found lost, so any of them may have reached the target uncounted", "the rest"},
		{"silent (closed model)", Agent{LostAt: 8, LostSeen: 13100 * time.Millisecond, LostWhy: "it fell silent for 5.00s"},
			"was lost at 0:08: it fell silent for 5.00s; its seconds before that are kept; what it sent in the 5.10s before it was found lost is not counted", ""},
		{"stopped itself after sending everything", Agent{LostAt: 4, LostSeen: 3450 * time.Millisecond, LostPlan: 650, LostWhy: "it stopped itself (agent stopped: terminated)"},
			"its seconds before that are kept, and 650 planned iterations of its segment were not offered", "uncounted"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := tc.a
			a.Name, a.Addr, a.Offered, a.CPU = "agent 2", "h2:6565", math.NaN(), math.NaN()
			got := strings.Join(agentNotes([]Agent{a}), "\n")
			if !strings.Contains(got, tc.want) || (tc.not != "" && strings.Contains(got, tc.not)) {
				t.Errorf("note %q\nwant %q", got, tc.want)
			}
			js := agentsJSON([]Agent{a})[0]
			if js["lost_found_ms"] != ms(a.LostSeen) || js["lost_unreported_planned_iterations"] != a.Unreported {
				t.Errorf("summary.json's agent: %v", js)
			}
		})
	}
}

// TestPartialLoadNeverPasses: a run that lost an agent says the planned
// load was not delivered, in the summary and report.html, and never reads
// PASS, whether its thresholds passed or not (as an interrupted run).
func TestPartialLoadNeverPasses(t *testing.T) {
	pass := threshold.Result{Key: "http_reqs", Expr: "count>10", HasData: true, Pass: true, Observed: 60}
	fail := threshold.Result{Key: "http_reqs", Expr: "count>100", HasData: true, Pass: false, Observed: 60}
	for _, tc := range []struct {
		name    string
		result  threshold.Result
		exit    int
		verdict string
		want    string
	}{
		{"thresholds pass", pass, 1, VerdictPartial,
			"PARTIAL LOAD: an agent was lost, so the planned load was not all delivered; on what ran, its threshold passed (the run's exit code: 1)"},
		{"a threshold fails", fail, 99, VerdictPartial,
			"PARTIAL LOAD: an agent was lost, so the planned load was not all delivered; on what ran, 1 of 1 threshold failed (the run's exit code: 99)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := deadRun(t)
			in.Run.Endpoints[0].Failures = [len(in.Run.Endpoints[0].Failures)]int64{} // every request succeeded
			th, err := threshold.New(tc.result.Key, tc.result.Expr)
			if err != nil {
				t.Fatal(err)
			}
			in.Status, in.ExitCode, in.Thresholds, in.Results = "partial", tc.exit, []threshold.Threshold{th}, []threshold.Result{tc.result}
			if got := Verdict(in); got != tc.verdict || in.Passed() {
				t.Fatalf("Verdict %q, passed %v; want %q, not passed", got, in.Passed(), tc.verdict)
			}
			var text bytes.Buffer
			if err := WriteText(&text, in); err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(strings.Fields(text.String()), " "); !strings.Contains(got, tc.want) {
				t.Errorf("the summary lacks %q:\n%s", tc.want, text.String())
			}
			var page bytes.Buffer
			if err := WriteHTML(&page, in); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(page.String(), tc.verdict) || !strings.Contains(page.String(), "Partial") {
				t.Errorf("report.html lacks the verdict %q and the status", tc.verdict)
			}
		})
	}
}

// TestReportSaysWhatTheOutputsLost: report.html and the dashboard's end
// say, as the summary does, how many seconds a metrics output lost.
func TestReportSaysWhatTheOutputsLost(t *testing.T) {
	in := fixture(t)
	in.Outputs = []OutputResult{{Output: "influxdb=http://127.0.0.1:8086", Offered: 5, Sent: 2, Dropped: 3, Reason: "queue full"}}
	const want = "output influxdb=http://127.0.0.1:8086: 3 of 5 seconds were not delivered (queue full)"
	var page bytes.Buffer
	if err := WriteHTML(&page, in); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(page.String(), want) {
		t.Errorf("report.html lacks %q", want)
	}
	if got := strings.Join(NewFinal(in, "").Warnings, "\n"); !strings.Contains(got, want) {
		t.Errorf("the dashboard's end lacks %q: %q", want, got)
	}
}
