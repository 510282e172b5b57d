package main

import (
	"math"
	"testing"
)

func TestRuleIDNamesTheCPUsSubject(t *testing.T) {
	cases := map[string]Finding{
		"cpu-saturation:App":  {Kind: "cpu-saturation", Title: "App CPU saturated: 97% of its CPUs busy (process_cpu_usage, role=app) from 0:04"},
		"cpu-saturation:DB":   {Kind: "cpu-saturation", Title: "postgres CPU saturated: 99% of its CPU limits (container_cpu_usage_seconds_total, …) from 0:10"},
		"cpu-throttled:App":   {Kind: "cpu-throttled", Title: "truthapp CPU throttled 40% of periods at its limit (pods truthapp-…) from 0:10"},
		"cpu-saturation:host": {Kind: "cpu-saturation", Title: "host CPU busy: 100% busy (node_cpu_seconds_total, role=host)"},
		"cpu-saturation:ksm":  {Kind: "cpu-saturation", Title: "ksm CPU saturated"},
		"pool-exhaustion":     {Kind: "pool-exhaustion", Title: "DB pool exhausted: 2 of 2 connections in use"},
	}
	for want, f := range cases {
		if got := ruleID(f); got != want {
			t.Errorf("%q: %s, want %s", f.Title, got, want)
		}
	}
}

func TestFiredRulesAreWarningsAndCriticalsOnce(t *testing.T) {
	fs := []Finding{{Kind: "saturation", Severity: "warning"}, {Kind: "saturation", Severity: "critical"},
		{Kind: "cpu-saturation", Severity: "info", Title: "App CPU busy"}, {Kind: "gc-pressure", Severity: "critical"}}
	got := firedRules(fs)
	if len(got) != 2 || got[0] != "saturation" || got[1] != "gc-pressure" {
		t.Errorf("fired %v, want [saturation gc-pressure]: an info finding is context, not a verdict", got)
	}
}

func TestMatchesSubjects(t *testing.T) {
	cases := []struct {
		fired, listed string
		want          bool
	}{
		{"cpu-saturation:DB", "cpu-saturation:DB", true},
		{"cpu-saturation:App", "cpu-saturation:DB", false},
		{"cpu-saturation:host", "cpu-saturation", true},
		{"saturation", "cpu-saturation", false},
		{"cpu-saturation", "cpu-saturation:App", false},
	}
	for _, c := range cases {
		if got := matches(c.fired, c.listed); got != c.want {
			t.Errorf("matches(%s, %s) = %v", c.fired, c.listed, got)
		}
	}
}

// TestScoreRules checks precision and recall on a small catalogue.
func TestScoreRules(t *testing.T) {
	cs := []Case{
		{ID: "pool", Must: rules("pool-exhaustion"), May: []string{"saturation"}},
		{ID: "cpu", Must: [][]string{{"cpu-saturation:App", "cpu-throttled:App"}}},
		{ID: "ok"},
	}
	runs := []RunRecord{
		{Case: "pool", Judged: true, Fired: []string{"pool-exhaustion", "saturation"}},
		{Case: "pool", Judged: true, Fired: []string{"saturation"}},
		{Case: "pool", Judged: false, Fired: []string{"gc-pressure"}}, // unjudged: counted, not scored
		{Case: "cpu", Judged: true, Fired: []string{"cpu-throttled:App"}},
		{Case: "cpu", Judged: true, Fired: []string{"cpu-saturation:App", "cpu-saturation:host"}},
		{Case: "ok", Judged: true, Fired: []string{"saturation"}},
		{Case: "ok", Judged: true},
	}
	got := map[string]RuleScore{}
	for _, r := range scoreRules(cs, runs) {
		got[r.Rule] = r
	}
	check := func(rule string, fired, allowedN, mustRuns, hits, unjudged int) {
		t.Helper()
		r := got[rule]
		if r.Fired != fired || r.FiredAllowed != allowedN || r.MustRuns != mustRuns || r.MustHits != hits || r.Unjudged != unjudged {
			t.Errorf("%s: %+v; want fired %d (allowed %d), must runs %d (hits %d), unjudged %d", rule, r, fired, allowedN, mustRuns, hits, unjudged)
		}
	}
	check("pool-exhaustion", 1, 1, 2, 1, 1)
	check("saturation", 3, 2, 0, 0, 0)
	check("cpu-saturation:App or cpu-throttled:App", 0, 0, 2, 2, 0)
	check("cpu-saturation", 1, 0, 0, 0, 0) // App was allowed, host was not: the kind's run is not allowed
	check("cpu-throttled", 1, 1, 0, 0, 0)
	if _, ok := got["gc-pressure"]; ok {
		t.Error("an unjudged run's finding was scored")
	}
	if p := float64(got["saturation"].Precision); math.Abs(p-2.0/3) > 1e-9 {
		t.Errorf("saturation precision %v, want 2/3", p)
	}
	if r := float64(got["pool-exhaustion"].Recall); r != 0.5 {
		t.Errorf("pool-exhaustion recall %v, want 0.5", r)
	}
	if len(got["pool-exhaustion"].Misses) == 0 || len(got["cpu-throttled"].Misses) != 0 {
		t.Errorf("misses: pool %v, throttled %v", got["pool-exhaustion"].Misses, got["cpu-throttled"].Misses)
	}
}

func TestScoreCasesAndCompares(t *testing.T) {
	cs := []Case{{ID: "pool", Must: rules("pool-exhaustion"), May: []string{"saturation"}}}
	runs := []RunRecord{
		{Case: "pool", Judged: true, Fired: []string{"pool-exhaustion", "gc-pressure"}},
		{Case: "pool", Judged: true, Fired: []string{"saturation"}},
		{Case: "pool", Error: "boom"},
	}
	s := scoreCases(cs, runs)[0]
	if s.Runs != 3 || s.Judged != 2 || s.MustMet != 1 || s.Silent != 1 || s.Unexpected["gc-pressure"] != 1 || s.Errors != 1 {
		t.Errorf("case score %+v", s)
	}
	pairs := []ComparePair{{"same", 1}, {"compare-20", 1.2}}
	recs := []CompareRecord{
		{Case: "same", Judged: true, Exit: 0}, {Case: "same", Judged: true, Exit: 99}, {Case: "same", Unjudged: "busy"},
		{Case: "compare-20", Judged: true, Exit: 0}, {Case: "compare-20", Judged: true, Exit: 99},
		{Case: "same", Judged: true, Exit: 99, GateNotJudged: true}, {Case: "compare-20", Judged: true, Exit: 99, GateNotJudged: true},
	}
	cmp := scoreCompares(pairs, recs)
	if cmp[0].FPRate != 0.5 || cmp[0].Unjudged != 1 || !math.IsNaN(float64(cmp[0].FNRate)) || cmp[1].FNRate != 0.5 ||
		cmp[0].GateNotJudged != 1 || cmp[1].GateNotJudged != 1 || cmp[0].Judged != 2 {
		t.Errorf("compare scores %+v", cmp)
	}
	m := Misses(nil, nil, cmp)
	if len(m) != 2 {
		t.Errorf("misses %v, want the false positives and the false negatives", m)
	}
}

func TestCapacityMisses(t *testing.T) {
	c := CapRecord{Case: "c", Truth: 100, Searches: []SearchScore{
		{Rep: 1, Judged: true, ErrorPct: 5, EstimateGot: 5, EstimateWant: 5},
		{Rep: 2, Judged: true, ErrorPct: -12, EstimateGot: 7, EstimateWant: 5},
		{Rep: 3, Judged: false, ErrorPct: 80},
	}}
	if m := capMisses(c); len(m) != 2 {
		t.Errorf("misses %v, want search 2's capacity and estimate", m)
	}
	if m := capMisses(CapRecord{Case: "c"}); len(m) != 1 {
		t.Errorf("an unmeasured case: %v", m)
	}
}
