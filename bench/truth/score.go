package main

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strings"
)

// The catalogue's targets.
const (
	targetPrecision   = 0.95
	targetRecall      = 0.90
	targetCapacityPct = 10.0
	targetCompareFP   = 0.05
	targetCompareFN   = 0.05 // for a 20 % change
	targetEstimateOff = 1
)

// matches reports whether a fired rule id satisfies a listed one: a listed
// kind without a subject allows every subject.
func matches(fired, listed string) bool {
	if fired == listed {
		return true
	}
	kind, _, _ := strings.Cut(fired, ":")
	return !strings.Contains(listed, ":") && kind == listed
}

// allowed reports whether fired is listed under the case's must or may,
// or the run's own MayAlso.
func allowed(c Case, r RunRecord, fired string) bool {
	for _, l := range r.MayAlso {
		if matches(fired, l) {
			return true
		}
	}
	for _, alts := range c.Must {
		for _, r := range alts {
			if matches(fired, r) {
				return true
			}
		}
	}
	for _, r := range c.May {
		if matches(fired, r) {
			return true
		}
	}
	return false
}

// satisfied reports whether a must item (alternatives) fired in a run.
func satisfied(item []string, fired []string) bool {
	for _, f := range fired {
		for _, r := range item {
			if matches(f, r) {
				return true
			}
		}
	}
	return false
}

// RuleScore is one row of the rule table: precision for a kind, recall
// for a must item (a rule, or alternatives "a or b").
type RuleScore struct {
	Rule         string   `json:"rule"`
	Fired        int      `json:"fired"`         // judged runs where a finding of this kind fired
	FiredAllowed int      `json:"fired_allowed"` // of which in a case that lists it
	Precision    Ratio    `json:"precision"`
	MustRuns     int      `json:"must_runs"` // judged runs of cases listing it under must
	MustHits     int      `json:"must_hits"` // of which it fired in
	Recall       Ratio    `json:"recall"`
	Unjudged     int      `json:"unjudged"`         // runs of cases listing it under must the host was too busy for, or that failed
	NoPremise    int      `json:"premise_not_met"`  // runs of those cases whose fault did not happen (by the harness's own measure)
	Misses       []string `json:"misses,omitempty"` // why the target is missed
}

// CaseScore is one row of the case table.
type CaseScore struct {
	Case       string         `json:"case"`
	Fault      string         `json:"fault"`
	Must       string         `json:"must"`
	Runs       int            `json:"runs"`
	Judged     int            `json:"judged"`
	MustMet    int            `json:"must_met"`   // judged runs in which every must item fired
	Silent     int            `json:"clean"`      // judged runs with nothing fired outside must and may
	Unexpected map[string]int `json:"unexpected"` // rule → judged runs it fired in though not allowed
	Errors     int            `json:"errors"`     // runs that could not be made
	NoPremise  int            `json:"premise_not_met"`
}

// scoreRules computes the rule table over the judged runs.
func scoreRules(cases []Case, runs []RunRecord) []RuleScore {
	byID := map[string]Case{}
	for _, c := range cases {
		byID[c.ID] = c
	}
	rows := map[string]*RuleScore{}
	row := func(k string) *RuleScore {
		if rows[k] == nil {
			rows[k] = &RuleScore{Rule: k, Precision: Ratio(math.NaN()), Recall: Ratio(math.NaN())}
		}
		return rows[k]
	}
	for _, r := range runs {
		c := byID[r.Case]
		for _, item := range c.Must {
			rs := row(strings.Join(item, " or "))
			switch {
			case !r.Judged && r.NoPremise != "":
				rs.NoPremise++
				continue
			case !r.Judged:
				rs.Unjudged++
				continue
			}
			rs.MustRuns++
			if satisfied(item, r.Fired) {
				rs.MustHits++
			}
		}
		if !r.Judged {
			continue
		}
		kinds := map[string]bool{}    // a kind counts once per run
		allowedK := map[string]bool{} // and is allowed when every subject it fired for is
		for _, f := range r.Fired {
			k, _, _ := strings.Cut(f, ":")
			if !kinds[k] {
				kinds[k], allowedK[k] = true, true
			}
			allowedK[k] = allowedK[k] && allowed(c, r, f)
		}
		for k := range kinds {
			rs := row(k)
			rs.Fired++
			if allowedK[k] {
				rs.FiredAllowed++
			}
		}
	}
	var out []RuleScore
	for _, rs := range rows {
		if rs.Fired > 0 {
			rs.Precision = Ratio(float64(rs.FiredAllowed) / float64(rs.Fired))
		}
		if rs.MustRuns > 0 {
			rs.Recall = Ratio(float64(rs.MustHits) / float64(rs.MustRuns))
		}
		rs.Misses = ruleMisses(*rs)
		out = append(out, *rs)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Rule < out[j].Rule })
	return out
}

// ruleMisses says which of a rule's targets it misses.
func ruleMisses(rs RuleScore) []string {
	var m []string
	if rs.Fired > 0 && rs.Precision < targetPrecision {
		m = append(m, fmt.Sprintf("precision %.2f < %.2f", rs.Precision, targetPrecision))
	}
	isMust := rs.MustRuns > 0 || rs.Unjudged > 0 || rs.NoPremise > 0
	switch {
	case isMust && rs.MustRuns == 0 && rs.NoPremise > 0:
		m = append(m, fmt.Sprintf("recall not measured: the case's fault did not happen in %d runs (premise not met), the rest unjudged or failed", rs.NoPremise))
	case isMust && rs.MustRuns == 0:
		m = append(m, "recall not measured: every run unjudged or failed")
	case isMust && rs.Recall < targetRecall:
		m = append(m, fmt.Sprintf("recall %.2f < %.2f", rs.Recall, targetRecall))
	}
	return m
}

// scoreCases computes the case table.
func scoreCases(cases []Case, runs []RunRecord) []CaseScore {
	var out []CaseScore
	for _, c := range cases {
		cs := CaseScore{Case: c.ID, Fault: c.Fault, Must: mustText(c), Unexpected: map[string]int{}}
		for _, r := range runs {
			if r.Case != c.ID {
				continue
			}
			cs.Runs++
			if r.Error != "" {
				cs.Errors++
			}
			if r.NoPremise != "" {
				cs.NoPremise++
			}
			if !r.Judged {
				continue
			}
			cs.Judged++
			met := true
			for _, item := range c.Must {
				met = met && satisfied(item, r.Fired)
			}
			if met {
				cs.MustMet++
			}
			clean := true
			for _, f := range r.Fired {
				if !allowed(c, r, f) {
					cs.Unexpected[f]++
					clean = false
				}
			}
			if clean {
				cs.Silent++
			}
		}
		out = append(out, cs)
	}
	return out
}

// mustText writes a case's must list.
func mustText(c Case) string {
	if len(c.Must) == 0 {
		return "(none)"
	}
	var parts []string
	for _, item := range c.Must {
		parts = append(parts, strings.Join(item, " or "))
	}
	return strings.Join(parts, ", ")
}

// CompareScore is the compare table's row for one pair.
type CompareScore struct {
	Case   string `json:"case"`
	Change bool   `json:"change"`
	Runs   int    `json:"runs"`
	Judged int    `json:"judged"`
	Failed int    `json:"gate_failed"` // judged pairs the gate failed (exit 99)
	Passed int    `json:"gate_passed"` // judged pairs it passed (exit 0)
	// GateNotJudged: pairs the gate refused to judge (exit 99, saying
	// why): not counted as judged, never as a pass.
	GateNotJudged int   `json:"gate_not_judged"`
	FPRate        Ratio `json:"fp_rate"` // NaN where it does not apply
	FNRate        Ratio `json:"fn_rate"`
	Unjudged      int   `json:"unjudged"`
	Errored       int   `json:"errored"`
}

// scoreCompares computes the compare table.
func scoreCompares(pairs []ComparePair, recs []CompareRecord) []CompareScore {
	var out []CompareScore
	for _, p := range pairs {
		cs := CompareScore{Case: p.ID, Change: p.Change(), FPRate: Ratio(math.NaN()), FNRate: Ratio(math.NaN())}
		for _, r := range recs {
			if r.Case != p.ID {
				continue
			}
			cs.Runs++
			switch {
			case r.Error != "":
				cs.Errored++
			case !r.Judged:
				cs.Unjudged++
			case r.GateNotJudged:
				cs.GateNotJudged++
			case r.Exit == 99:
				cs.Judged++
				cs.Failed++
			default:
				cs.Judged++
				cs.Passed++
			}
		}
		if cs.Judged > 0 {
			if p.Change() {
				cs.FNRate = Ratio(float64(cs.Passed) / float64(cs.Judged))
			} else {
				cs.FPRate = Ratio(float64(cs.Failed) / float64(cs.Judged))
			}
		}
		out = append(out, cs)
	}
	return out
}

// Misses lists every target the scores miss, for the exit code.
func Misses(rules []RuleScore, caps []CapRecord, cmp []CompareScore) []string {
	var m []string
	for _, r := range rules {
		for _, why := range r.Misses {
			m = append(m, r.Rule+": "+why)
		}
	}
	for _, c := range caps {
		m = append(m, capMisses(c)...)
	}
	for _, c := range cmp {
		switch {
		case c.Judged == 0:
			m = append(m, c.Case+": not measured (no judged pair)")
		case !c.Change && c.FPRate > targetCompareFP:
			m = append(m, fmt.Sprintf("%s: false positives %.0f%% > %.0f%%", c.Case, 100*c.FPRate, 100*targetCompareFP))
		case c.Case == "compare-20" && c.FNRate > targetCompareFN:
			m = append(m, fmt.Sprintf("%s: false negatives %.0f%% > %.0f%%", c.Case, 100*c.FNRate, 100*targetCompareFN))
		}
	}
	return m
}

// capMisses says where a capacity case misses its targets.
func capMisses(c CapRecord) []string {
	var m []string
	judged := 0
	for _, s := range c.Searches {
		if !s.Judged {
			continue
		}
		judged++
		if math.Abs(s.ErrorPct) > targetCapacityPct {
			m = append(m, fmt.Sprintf("%s search %d: capacity %+.1f%% off the sweep (limit ±%.0f%%)", c.Case, s.Rep, s.ErrorPct, targetCapacityPct))
		}
		if d := s.EstimateGot - s.EstimateWant; s.EstimateGot == 0 || d > targetEstimateOff || d < -targetEstimateOff {
			m = append(m, fmt.Sprintf("%s search %d: estimate %d instances for %g req/s, the sweep's %d", c.Case, s.Rep, s.EstimateGot, s.EstimateRPS, s.EstimateWant))
		}
	}
	if judged == 0 {
		m = append(m, c.Case+": capacity not measured (no judged search)")
	}
	return m
}

// Ratio is a share that may have no value (NaN), written as null in JSON.
type Ratio float64

// UnmarshalJSON reads null as NaN.
func (r *Ratio) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*r = Ratio(math.NaN())
		return nil
	}
	return json.Unmarshal(b, (*float64)(r))
}

// MarshalJSON writes NaN as null.
func (r Ratio) MarshalJSON() ([]byte, error) {
	if math.IsNaN(float64(r)) {
		return []byte("null"), nil
	}
	return json.Marshal(float64(r))
}

// BusyAgreement is how often loadlens itself named a busy host in the
// runs the harness found too busy to judge (its own guard, from /proc).
type BusyAgreement struct {
	Unjudged int `json:"unjudged_busy"` // runs unjudged because other processes took the CPU
	Named    int `json:"named"`         // of which loadlens named the busy host
}

// busyRules are the findings that name other processes taking the CPU.
var busyRules = []string{"generator-host-busy", "target-host-busy"}

// scoreBusy counts the agreement over runs unjudged for a busy host.
func scoreBusy(runs []RunRecord) BusyAgreement {
	var b BusyAgreement
	for _, r := range runs {
		if r.Judged || r.Error != "" || r.NoPremise != "" {
			continue
		}
		b.Unjudged++
		if satisfied(busyRules, r.Fired) {
			b.Named++
		}
	}
	return b
}
