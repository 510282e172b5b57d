package report

import (
	"math"
	"slices"
	"strings"
	"time"

	"github.com/loadlens/loadlens/internal/units"
)

// Agent is one agent of a distributed run, as the report shows it: what it
// was asked to do and what it did, so a weak or saturated agent stands out.
type Agent struct {
	Name     string        `json:"name"`          // "agent 1", in the order the agents were given
	Addr     string        `json:"addr"`          // the address it was reached at
	Segment  string        `json:"segment"`       // its part of the test, e.g. 1/4:1/2
	Offset   time.Duration `json:"clock_offset"`  // its clock minus the coordinator's, measured at connect
	RTT      time.Duration `json:"rtt"`           // the round trip of that measurement
	Offered  float64       `json:"offered_rps"`   // iterations per second its segment of the schedule offered (open model)
	Achieved float64       `json:"achieved_rps"`  // iterations per second it started, over the time the load ran (not requests: a flow may make several)
	Over     time.Duration `json:"achieved_over"` // that time: the planned load's, or until it was cut short
	// OpenOnly: Offered is the arrival-rate scenarios' schedule while the
	// test also has VU scenarios, whose iterations Achieved counts too.
	OpenOnly bool          `json:"offered_open_only,omitempty"`
	Requests int64         `json:"requests"`   // requests it completed; the agents' add up to the run's
	Iters    int64         `json:"iterations"` // iterations it started
	Errors   int64         `json:"errors"`     // failed requests
	Dropped  int64         `json:"dropped"`    // iterations dropped for lack of a free VU
	NotSent  int64         `json:"not_sent"`   // iterations a request not sent ended (in Iters, in no request figure)
	CPU      float64       `json:"cpu"`        // mean cores its process kept busy
	CPUMax   float64       `json:"cpu_max"`    // the busiest second's
	LagP99   time.Duration `json:"lag_p99"`    // the worst second's p99 scheduler lag
	Seconds  int           `json:"seconds"`    // seconds received
	Missing  []int         `json:"missing_seconds,omitempty"`
	LostAt   int           `json:"lost_at"` // the first second not received after it was lost; -1 when it was not
	LostWhy  string        `json:"lost_why,omitempty"`
	LostPlan int64         `json:"lost_planned_iterations,omitempty"` // planned iterations of its segment after it was lost (open model)
	// LostSeen is how long after the start it was found lost: what it sent
	// between LostAt and then reached the target, maybe, but not this report.
	LostSeen time.Duration `json:"lost_seen,omitempty"`
	// Unreported is the planned iterations of its segment (open model) in
	// that time: at most what the target got from it that is not counted.
	Unreported int64 `json:"unreported_planned_iterations,omitempty"`
}

// agentHead is the per-agent table's header.
// The rates are of iterations, which a flow of several requests makes
// differ from requests, so the header says so and REQUESTS is beside them.
var agentHead = []string{"AGENTS", "SEGMENT", "CLOCK", "OFFERED ITER/S", "ACHIEVED ITER/S", "REQUESTS", "CPU", "LAG P99", "DROPPED", "NOT SENT", "ERRORS", "LOST FROM"}

// agentUnitHead is agentHead (or the terminal's head) with REQUESTS in
// the words of what the run's samples count: CALLS for gRPC, SESSIONS for
// WebSocket and SSE (units.ForProtocol).
func agentUnitHead(head []string, in *Input) []string {
	head = slices.Clone(head)
	if u := agentUnit(in); u != units.Requests {
		head[5] = strings.ToUpper(u.Many)
	}
	return head
}

// agentUnit is what the run's samples count; requests without a run.
func agentUnit(in *Input) units.Unit {
	if in.Run == nil {
		return units.Requests
	}
	return runUnit(in.Run).Or()
}

// notSentColumn is NOT SENT's place in agentHead: a column shown only when
// an agent had an iteration end on a request not sent.
const notSentColumn = 9

// agentRows is the table's header (head, agentHead or the terminal's),
// a row per agent and the agents' total, without NOT SENT when no agent
// has any.
func agentRows(agents []Agent, head []string) [][]string {
	rows := [][]string{head}
	notSent := false
	for i := range agents {
		rows = append(rows, agentCells(&agents[i]))
		notSent = notSent || agents[i].NotSent > 0
	}
	rows = append(rows, agentTotal(agents))
	if !notSent {
		for i := range rows {
			rows[i] = slices.Delete(slices.Clone(rows[i]), notSentColumn, notSentColumn+1)
		}
	}
	return rows
}

// agentCells is one agent's row of the table.
func agentCells(a *Agent) []string {
	lost := "—"
	if a.LostAt >= 0 {
		lost = units.Clock(a.LostAt)
	}
	return []string{a.Name + " " + a.Addr, a.Segment, units.Signed(units.Duration(a.Offset.Round(time.Microsecond))),
		offered(a.Offered), units.Rate(a.Achieved, ""), units.Count(a.Requests), cores(a.CPU), units.Duration(a.LagP99),
		units.Count(a.Dropped), units.Count(a.NotSent), units.Count(a.Errors), lost}
}

// agentTotal is the table's last row: the agents' sums, so their requests
// visibly add up to the run's.
func agentTotal(agents []Agent) []string {
	var t Agent
	for _, a := range agents {
		t.Offered += a.Offered // NaN when the test has no open-model scenario, as each agent's
		t.Achieved += a.Achieved
		t.Requests += a.Requests
		t.Dropped += a.Dropped
		t.NotSent += a.NotSent
		t.Errors += a.Errors
	}
	return []string{"all agents", "", "", offered(t.Offered), units.Rate(t.Achieved, ""), units.Count(t.Requests), "", "",
		units.Count(t.Dropped), units.Count(t.NotSent), units.Count(t.Errors), ""}
}

// agentNotes says what OFFERED counts beside a VU scenario, which agents
// were lost and which seconds went missing.
func agentNotes(agents []Agent) []string {
	var out []string
	if len(agents) > 0 && agents[0].OpenOnly {
		out = append(out, "OFFERED is the arrival-rate scenarios' schedule; ACHIEVED counts every scenario's iterations, "+
			"the VU scenarios' too, so it may exceed OFFERED")
	}
	for _, a := range agents {
		if a.NotSent > 0 {
			out = append(out, "NOT SENT counts the iterations that ended on a request that could not be sent (a URL or header that cannot be "+
				"written once filled in): they are in ACHIEVED, as iterations, and in no REQUESTS or ERRORS figure")
			break
		}
	}
	for _, a := range agents {
		if a.LostAt >= 0 && a.Over > 0 { // every agent's rate is over the same time
			out = append(out, "ACHIEVED is over the "+units.Duration(a.Over)+" the load ran, a lost agent's too, so that its rate shows what it did not deliver "+
				"and the agents' add up; the run's rate in its headline is over the time the run lasted")
			break
		}
	}
	for _, a := range agents {
		if a.LostAt >= 0 {
			out = append(out, lostNote(&a))
		}
		if len(a.Missing) > 0 {
			out = append(out, a.Name+" ("+a.Addr+"): no data for "+clocks(a.Missing)+": it did not arrive within the wait, so it is left out, not counted as zero")
		}
	}
	return out
}

// lostNote says when an agent was lost and what of its load is not in the
// figures: what it may have sent after its last second received (it could
// not report it), and what it did not offer at all.
func lostNote(a *Agent) string {
	line := a.Name + " (" + a.Addr + ") was lost at " + units.Clock(a.LostAt) + ": " + a.LostWhy + "; its seconds before that are kept"
	unheard := a.LostSeen - time.Duration(a.LostAt)*time.Second // it may have sent load it could not report
	switch {
	case a.LostPlan > 0 && a.Unreported >= a.LostPlan:
		line += ", and the " + units.CountOf(a.LostPlan, "planned iteration", "planned iterations") + " of its segment from then on are not in these figures: " +
			"all were due in the " + units.Duration(unheard) + " before it was found lost, so any of them may have reached the target uncounted"
	case a.LostPlan > 0 && a.Unreported > 0:
		line += ", and the " + units.CountOf(a.LostPlan, "planned iteration", "planned iterations") + " of its segment from then on are not in these figures: up to " +
			units.Count(a.Unreported) + " of them, due in the " + units.Duration(unheard) + " before it was found lost, may have reached the target uncounted, the rest were not offered"
	case a.LostPlan > 0:
		line += ", and " + units.CountOf(a.LostPlan, "planned iteration", "planned iterations") + " of its segment were not offered"
	case unheard > 0:
		line += "; what it sent in the " + units.Duration(unheard) + " before it was found lost is not counted"
	}
	return line
}

// writeAgents prints the per-agent table of a distributed run.
func writeAgents(sb *strings.Builder, in *Input) {
	if len(in.Agents) == 0 {
		return
	}
	// The terminal's header is narrower than the page's (agentHead): the
	// rates' unit goes under the table, and LOST FROM only when an agent was.
	head := agentUnitHead(agentHead, in)
	head[3], head[4] = "OFFERED", "ACHIEVED"
	rows := agentRows(in.Agents, head)
	lost := false
	for i := range in.Agents {
		lost = lost || in.Agents[i].LostAt >= 0
	}
	align := "ml" + strings.Repeat("r", len(rows[0])-2)
	if !lost {
		for i := range rows {
			rows[i] = rows[i][:len(rows[i])-1]
		}
		align = align[:len(align)-1]
	}
	table(sb, "  ", align, rows)
	u := agentUnit(in)
	sb.WriteString(wrap("OFFERED and ACHIEVED are iterations per second; a flow of several "+u.Many+" makes them differ from "+strings.ToUpper(u.Many)+".",
		units.Columns, "  ", "  "))
	for _, n := range agentNotes(in.Agents) {
		sb.WriteString(wrap(n, units.Columns, "  ! ", "    "))
	}
	sb.WriteString("\n")
}

// offered is an agent's offered rate; "—" when the test has no open-model scenario.
func offered(r float64) string {
	if math.IsNaN(r) {
		return "—"
	}
	return units.Rate(r, "")
}

// cores is an agent's CPU; "—" when it could not be measured.
func cores(c float64) string {
	if math.IsNaN(c) {
		return "—"
	}
	return units.Cores(c)
}

// agentsJSON is the agents for summary.json, durations in milliseconds and
// unknown figures null.
func agentsJSON(agents []Agent) []map[string]any {
	num := func(v float64) any {
		if math.IsNaN(v) {
			return nil
		}
		return v
	}
	var out []map[string]any
	for _, a := range agents {
		m := map[string]any{"name": a.Name, "addr": a.Addr, "segment": a.Segment, "clock_offset_ms": ms(a.Offset), "rtt_ms": ms(a.RTT),
			"offered_rate": num(a.Offered), "achieved_rate": a.Achieved, "achieved_over_ms": ms(a.Over), "rate_unit": "iterations/s", "iterations": a.Iters, "requests": a.Requests, "errors": a.Errors, "dropped": a.Dropped,
			"iterations_not_sent": a.NotSent, "cpu_cores": num(a.CPU), "cpu_cores_max": a.CPUMax, "lag_p99_ms": ms(a.LagP99), "seconds": a.Seconds, "missing_seconds": a.Missing}
		if a.LostAt >= 0 {
			m["lost_at_second"], m["lost_why"], m["lost_planned_iterations"] = a.LostAt, a.LostWhy, a.LostPlan
			m["lost_found_ms"], m["lost_unreported_planned_iterations"] = ms(a.LostSeen), a.Unreported
		}
		out = append(out, m)
	}
	return out
}

// clocks lists seconds as clock times, the first few of many.
func clocks(secs []int) string {
	const most = 8
	var parts []string
	for i, s := range secs {
		if i == most {
			parts = append(parts, "and "+units.Count(int64(len(secs)-most))+" more")
			break
		}
		parts = append(parts, units.Clock(s))
	}
	return strings.Join(parts, ", ")
}
