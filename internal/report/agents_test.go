package report

import (
	"math"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/loadlens/loadlens/internal/units"
)

func TestAgentTableNamesTheWeakAndTheLost(t *testing.T) {
	agents := []Agent{
		{Name: "agent 1", Addr: "h1:6565", Segment: "0:1/2", Offset: -1500 * time.Microsecond, Offered: 50, Achieved: 50, Over: 5 * time.Second, Requests: 150, Iters: 50, CPU: 0.2, LagP99: time.Millisecond, LostAt: -1},
		{Name: "agent 2", Addr: "h2:6565", Segment: "1/2:1", Offered: math.NaN(), Achieved: 31, Over: 5 * time.Second, Requests: 93, CPU: math.NaN(), Dropped: 19, LostAt: 3,
			LostWhy: "its connection ended (EOF)", LostPlan: 120, Missing: []int{1}},
	}
	var sb strings.Builder
	writeAgents(&sb, &Input{Agents: agents})
	for i, line := range strings.Split(sb.String(), "\n") {
		if n := utf8.RuneCountInString(line); n > units.Columns {
			t.Errorf("line %d is %d columns: %q", i+1, n, line)
		}
	}
	text := strings.Join(strings.Fields(sb.String()), " ")
	for _, want := range []string{
		// The terminal's header is narrower than the page's OFFERED ITER/S and ACHIEVED ITER/S; the unit is under the table.
		"AGENTS SEGMENT CLOCK OFFERED ACHIEVED REQUESTS CPU",
		"OFFERED and ACHIEVED are iterations per second",
		"agent 1 h1:6565 0:1/2 -1.50ms 50/s 50/s 150 0.2 cores 1.00ms 0 0 —",
		"agent 2 h2:6565 1/2:1 +0s — 31/s 93 — 0s 19 0 0:03",
		"all agents — 81/s 243 19 0",
		// the span of ACHIEVED, which the headline's rate is not over (second trial: 3.33/s beside "10 requests (9.05/s)")
		"ACHIEVED is over the 5.00s the load ran, a lost agent's too",
		"agent 2 (h2:6565) was lost at 0:03: its connection ended (EOF); its seconds before that are kept, and 120 planned iterations of its segment were not offered",
		"agent 2 (h2:6565): no data for 0:01: it did not arrive within the wait, so it is left out, not counted as zero",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the table lacks %q:\n%s", want, sb.String())
		}
	}
	sb.Reset()
	if writeAgents(&sb, &Input{Agents: agents[:1]}); strings.Contains(sb.String(), "LOST FROM") || strings.Contains(sb.String(), "ACHIEVED is over") || !strings.Contains(sb.String(), "1.00ms") {
		t.Errorf("no agent was lost, yet the table has a LOST FROM column (or lost its figures):\n%s", sb.String())
	}
	sb.Reset()
	if writeAgents(&sb, &Input{}); sb.Len() != 0 {
		t.Errorf("a run in one process printed an agents table: %q", sb.String())
	}
	js := agentsJSON(agents)
	if js[0]["rate_unit"] != "iterations/s" || js[0]["iterations"] != int64(50) || js[0]["requests"] != int64(150) || js[0]["achieved_rate"] != 50.0 {
		t.Errorf("summary.json's agent 1: %v; want its rate's unit, iterations and requests", js[0])
	}
	if js[1]["offered_rate"] != nil || js[1]["cpu_cores"] != nil || js[1]["lost_at_second"] != 3 || js[0]["lost_at_second"] != nil {
		t.Errorf("summary.json's agents: %v", js)
	}
}

// The agents' table says what OFFERED counts when the test has VU
// scenarios beside its arrival-rate ones, and only then.
func TestAgentNotesSayWhatOfferedCounts(t *testing.T) {
	for _, openOnly := range []bool{false, true} {
		notes := strings.Join(agentNotes([]Agent{{Name: "agent 1", LostAt: -1, Offered: 20, Achieved: 28.4, OpenOnly: openOnly}}), "\n")
		if strings.Contains(notes, "ACHIEVED counts every scenario's iterations, the VU scenarios' too") != openOnly {
			t.Errorf("open only %v: notes %q", openOnly, notes)
		}
	}
}

// TestAgentTableSaysIterationsNotSent: an agent whose iterations ended on
// a request that could not be sent says how many in a NOT SENT column,
// summed in the total row and explained under the table; a run without
// any keeps the table as it was, without the column.
func TestAgentTableSaysIterationsNotSent(t *testing.T) {
	agents := []Agent{
		{Name: "agent 1", Addr: "h1:6565", Segment: "0:1/2", Offered: math.NaN(), Achieved: 10, Over: 5 * time.Second, Requests: 40, Iters: 50, NotSent: 10, CPU: 0.2, LostAt: -1},
		{Name: "agent 2", Addr: "h2:6565", Segment: "1/2:1", Offered: math.NaN(), Achieved: 10, Over: 5 * time.Second, Requests: 43, Iters: 50, NotSent: 7, CPU: 0.2, LostAt: -1},
	}
	var sb strings.Builder
	writeAgents(&sb, &Input{Agents: agents})
	for i, line := range strings.Split(sb.String(), "\n") {
		if n := utf8.RuneCountInString(line); n > units.Columns {
			t.Errorf("line %d is %d columns: %q", i+1, n, line)
		}
	}
	text := strings.Join(strings.Fields(sb.String()), " ")
	for _, want := range []string{
		"CPU LAG P99 DROPPED NOT SENT ERRORS",
		"agent 1 h1:6565 0:1/2 +0s — 10/s 40 0.2 cores 0s 0 10 0",
		"all agents — 20/s 83 0 17 0",
		"NOT SENT counts the iterations that ended on a request that could not be sent",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the table lacks %q:\n%s", want, sb.String())
		}
	}
	page := agentRows(agents, agentHead) // report.html's table
	if page[0][notSentColumn] != "NOT SENT" || page[3][notSentColumn] != "17" || len(page[1]) != len(page[0]) {
		t.Errorf("report.html's table: %q", page)
	}
	if js := agentsJSON(agents); js[1]["iterations_not_sent"] != int64(7) {
		t.Errorf("summary.json's agent 2: %v, want iterations_not_sent 7", js[1])
	}
	agents[0].NotSent, agents[1].NotSent = 0, 0
	sb.Reset()
	writeAgents(&sb, &Input{Agents: agents})
	page = agentRows(agents, agentHead)
	if strings.Contains(sb.String(), "NOT SENT") || slices.Contains(page[0], "NOT SENT") || len(page[1]) != len(page[0]) || page[0][len(page[0])-1] != "LOST FROM" {
		t.Errorf("no iteration was not sent, yet a NOT SENT column:\n%s\n%q", sb.String(), page)
	}
}
