package demorun

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/loadlens/loadlens/internal/demo"
	"github.com/loadlens/loadlens/internal/diagnose"
	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/report"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/units"
)

// TestBeforeAfterCountsEveryFinding: an info finding the improved run
// printed is counted, beside the bottlenecks, not left out of "8 → 0".
func TestBeforeAfterCountsEveryFinding(t *testing.T) {
	of := func(sev ...diagnose.Severity) *report.Input {
		in := &report.Input{Dir: "results/x"}
		for _, s := range sev {
			in.Findings = append(in.Findings, diagnose.Finding{Severity: s})
		}
		return in
	}
	before := of(diagnose.Critical, diagnose.Critical, diagnose.Warning)
	after := of(diagnose.Info)
	var b strings.Builder
	writeBeforeAfter(&b, demo.Session{}, before, after)
	if want := "findings: bottlenecks 3 → 0 · notes 0 → 1"; !strings.Contains(b.String(), want) {
		t.Errorf("want %q:\n%s", want, b.String())
	}
}

// TestBeforeAfterKeepsTheHostApart: a busy host's generator findings in the
// naive run are not "bottlenecks" the improved shop fixed (a fresh-clone
// trial read "bottlenecks 5 → 0" with one of the five the busy machine's).
func TestBeforeAfterKeepsTheHostApart(t *testing.T) {
	of := func(kinds ...string) *report.Input {
		in := &report.Input{Dir: "results/x"}
		for _, k := range kinds {
			in.Findings = append(in.Findings, diagnose.Finding{Kind: k, Severity: diagnose.Critical})
		}
		return in
	}
	tests := []struct {
		name          string
		before, after *report.Input
		want          []string
		not           string
	}{
		{"the host busy in the naive run only", of(diagnose.KindPoolExhaustion, diagnose.KindGeneratorBound), of(),
			[]string{"bottlenecks 1 → 0", "about the generator's host, not counted above: 1 → 0"}, ""},
		{"the host busy in both", of(diagnose.KindHostBusy), of(diagnose.KindHostBusy), []string{"bottlenecks 0 → 0", ": 1 → 1"}, ""},
		{"a quiet host", of(diagnose.KindSaturation), of(), []string{"bottlenecks 1 → 0"}, "generator's host"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			writeBeforeAfter(&b, demo.Session{}, tt.before, tt.after)
			for _, w := range tt.want {
				if !strings.Contains(b.String(), w) {
					t.Errorf("want %q:\n%s", w, b.String())
				}
			}
			if tt.not != "" && strings.Contains(b.String(), tt.not) {
				t.Errorf("want no %q:\n%s", tt.not, b.String())
			}
			for _, l := range strings.Split(b.String(), "\n") {
				if utf8.RuneCountInString(l) > units.Columns {
					t.Errorf("line of %d columns: %q", utf8.RuneCountInString(l), l)
				}
			}
		})
	}
}

// TestBeforeAfterFitsTerminal: the demo's before → after lines, the
// README's first command's last word, keep within units.Columns with the
// naive run's wide figures, and break between the figure pairs, never
// inside one.
func TestBeforeAfterFitsTerminal(t *testing.T) {
	sess := demo.ScriptedSession()
	layout := sample.Layout{}
	for _, f := range sess.Fixes {
		layout.Scenarios = append(layout.Scenarios, sample.ScenarioInfo{Name: f.Scenario})
		layout.Endpoints = append(layout.Endpoints, sample.EndpointInfo{Scenario: int32(len(layout.Scenarios) - 1), Name: f.Endpoint})
		layout.Checks = append(layout.Checks, sample.CheckInfo{Scenario: int32(len(layout.Scenarios) - 1), Endpoint: int32(len(layout.Endpoints) - 1), Name: "status is 200"})
	}
	runOf := func(d time.Duration, failEvery int) *report.Input {
		rec := metrics.NewRecorder(layout, 1)
		sink := rec.Sink(0)
		for i := range 3000 {
			ep := int32(i % len(layout.Endpoints))
			r := sample.Request{Endpoint: ep, End: time.Second, Duration: d}
			if i%failEvery == 0 {
				r.Kind, r.Err = sample.Timeout, "timeout"
			}
			sink.Request(&r)
			sink.Check(ep, r.End, r.Kind == sample.OK)
		}
		run := metrics.NewRun(layout)
		run.Add(rec.Collect(0))
		run.Add(rec.Collect(1))
		run.SetElapsed(2 * time.Second)
		return &report.Input{Run: run, Dir: "results/20261124-081813-demo-naive"}
	}
	var b strings.Builder
	writeBeforeAfter(&b, sess, runOf(2010*time.Millisecond, 3), runOf(1560*time.Microsecond, 1<<30))
	out := b.String()
	if testing.Verbose() {
		t.Log("\n" + out)
	}
	// a third of the naive run's 750/s failed: the rate shown is what succeeded
	if plain := strings.ReplaceAll(out, units.Keep, " "); !strings.Contains(plain, "500 req/s → ") || !strings.Contains(plain, " req/s succeeded") {
		t.Errorf("the before → after rate is not the succeeded one (500/s of 750/s):\n%s", out)
	}
	if !strings.Contains(out, "(case study 1): p95 2.01s → 1.56ms ·") || !strings.Contains(out, "checks 66.67% → 100.00%") {
		t.Errorf("the figures are not there, or a pair is cut:\n%s", out)
	}
	for i, line := range strings.Split(out, "\n") {
		if n := utf8.RuneCountInString(line); n > units.Columns {
			t.Errorf("line %d is %d columns: %q", i+1, n, line)
		}
		if strings.HasPrefix(strings.TrimSpace(line), "·") || strings.HasPrefix(strings.TrimSpace(line), "→") {
			t.Errorf("line %d starts inside a pair: %q", i+1, line)
		}
	}
}
