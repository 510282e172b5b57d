package dist

import (
	"math"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/plan"
)

// TestAgentRowsRates checks the agents table's rates against the plan: an
// agent that started every arrival of its half of 40/s over 5s achieved
// what was offered, however long its graceful stop or last think times
// ran past the plan (seconds received); a lost one is rated over the same
// time, the load's, so that its rate says what it did not deliver and the
// agents' rates add up to the run's; a run cut short over the time it ran.
func TestAgentRowsRates(t *testing.T) {
	load := plan.Load{Model: plan.ArrivalRate, StartRate: 40, Stages: []plan.Stage{{Duration: 5 * time.Second, Target: 40}}}
	p := &plan.Plan{Scenarios: []*plan.Scenario{{Name: "s", Load: load}}}
	half := func(s string) plan.Segment {
		seg, err := plan.ParseSegment(s)
		if err != nil {
			t.Fatal(err)
		}
		return seg
	}
	tests := []struct {
		name         string
		state        agentState
		cutAt        time.Duration // when the run was stopped (Ctrl-C); 0 when it was not
		wantAchieved float64
	}{
		{"done on plan", agentState{next: 5, iterations: 100}, 0, 20},
		{"done, seconds past the plan", agentState{next: 8, iterations: 100}, 0, 20},
		{"lost after 2 seconds", agentState{next: 2, iterations: 40, lost: true, lostAt: 2}, 0, 8},
		{"interrupted at 2.5s", agentState{next: 3, iterations: 50}, 2500 * time.Millisecond, 20},
		{"interrupted after the plan, in the graceful stop", agentState{next: 6, iterations: 100}, 5500 * time.Millisecond, 20},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := tt.state
			a.remote = &remote{name: "agent 1", seg: half("0:1/2")}
			g := &generator{plan: p, agents: []*agentState{&a}, cutAt: tt.cutAt}
			row := g.Agents()[0]
			if math.Abs(row.Offered-20) > 1e-9 {
				t.Errorf("offered %v/s, want 20/s", row.Offered)
			}
			if row.Iters != a.iterations {
				t.Errorf("iterations %d, want %d", row.Iters, a.iterations)
			}
			if math.Abs(row.Achieved-tt.wantAchieved) > 1e-9 {
				t.Errorf("achieved %v/s, want %v/s", row.Achieved, tt.wantAchieved)
			}
			if got := row.Achieved * row.Over.Seconds(); math.Abs(got-float64(a.iterations)) > 1e-6 {
				t.Errorf("achieved %v/s over %v is %v iterations, want %d: the span the table states", row.Achieved, row.Over, got, a.iterations)
			}
		})
	}
}

// TestLostAgentRowSaysWhatWasNotReported: an agent found lost 660ms into
// its third second has the planned iterations of that time as what it may
// have sent unreported, within those of the rest of its segment; the
// seconds it was waited for in vain after it was lost are its loss, not
// missing seconds.
func TestLostAgentRowSaysWhatWasNotReported(t *testing.T) {
	load := plan.Load{Model: plan.ArrivalRate, StartRate: 200, Stages: []plan.Stage{{Duration: 10 * time.Second, Target: 200}}}
	p := &plan.Plan{Scenarios: []*plan.Scenario{{Name: "s", Load: load}}}
	seg, err := plan.ParseSegment("0:1/2")
	if err != nil {
		t.Fatal(err)
	}
	a := agentState{remote: &remote{name: "agent 1", seg: seg}, next: 3, iterations: 300, lost: true, lostAt: 3,
		lostSeen: 3660 * time.Millisecond, missing: []int{1, 3, 4}}
	g := &generator{plan: p, agents: []*agentState{&a}}
	row := g.Agents()[0]
	if row.LostPlan != 700 || row.Unreported != 66 || row.LostSeen != a.lostSeen {
		t.Errorf("lost plan %d, unreported %d, seen %s; want 700 from 0:03 on, of which 66 due before 3.66s", row.LostPlan, row.Unreported, row.LostSeen)
	}
	if len(row.Missing) != 1 || row.Missing[0] != 1 {
		t.Errorf("missing %v, want [1]: seconds from 0:03 on are its loss", row.Missing)
	}
	if math.Abs(row.Achieved-30) > 1e-9 {
		t.Errorf("achieved %v/s, want 300 over the planned 10s", row.Achieved)
	}
}

// TestAgentRowsSayWhenOfferedIsTheOpenScenariosOnly: beside a VU scenario,
// offered is the arrival-rate scenarios' schedule while achieved counts
// every iteration (a new user read "OFFERED 20/s ACHIEVED 28.4/s"), and
// the row says so for the table's note (report's TestAgentNotesSayWhatOfferedCounts);
// a test of arrival-rate scenarios alone needs no note.
func TestAgentRowsSayWhenOfferedIsTheOpenScenariosOnly(t *testing.T) {
	open := &plan.Scenario{Name: "open", Load: plan.Load{Model: plan.ArrivalRate, StartRate: 40, Stages: []plan.Stage{{Duration: 5 * time.Second, Target: 40}}}}
	vus := &plan.Scenario{Name: "vus", Load: plan.Load{Model: plan.VUs, StartVUs: 3, Stages: []plan.Stage{{Duration: 5 * time.Second, Target: 3}}}}
	seg, err := plan.ParseSegment("0:1")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		scens []*plan.Scenario
		note  bool
	}{
		{"arrival-rate alone", []*plan.Scenario{open}, false},
		{"beside a VU scenario", []*plan.Scenario{open, vus}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := agentState{next: 5, iterations: 142, remote: &remote{name: "agent 1", seg: seg}}
			g := &generator{plan: &plan.Plan{Scenarios: tc.scens}, agents: []*agentState{&a}}
			if row := g.Agents()[0]; row.OpenOnly != tc.note {
				t.Errorf("open only %v, want %v (offered %v/s, achieved %v/s)", row.OpenOnly, tc.note, row.Offered, row.Achieved)
			}
		})
	}
}
