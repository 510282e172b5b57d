package report

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/loadlens/loadlens/internal/capacity"
	"github.com/loadlens/loadlens/internal/units"
)

// search reads back one of capacity's golden searches.
func search(t *testing.T, name string, into any) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "capacity", "testdata", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, into); err != nil {
		t.Fatal(err)
	}
}

// capacityPages renders a search as the terminal and capacity.html show it.
func capacityPages(t *testing.T, r capacity.Result) (text, page string) {
	t.Helper()
	var b bytes.Buffer
	if err := WriteCapacityText(&b, r); err != nil {
		t.Fatal(err)
	}
	for i, line := range strings.Split(b.String(), "\n") { // every line fits a terminal
		if n := utf8.RuneCountInString(line); n > units.Columns {
			t.Errorf("line %d is %d columns: %q", i+1, n, line)
		}
	}
	text = strings.Join(strings.Fields(b.String()), " ") // its lines are wrapped: the tests read the words
	b.Reset()
	if err := WriteCapacityHTML(&b, r, "shop", 50*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	return text, b.String()
}

// TestCapacityRetriedRuns: each run retried because the host was busy is
// said so in the table and marked on the page.
func TestCapacityRetriedRuns(t *testing.T) {
	for _, kind := range []string{"lag", "cpu", "steal"} {
		t.Run(kind, func(t *testing.T) {
			var r capacity.Result
			search(t, "retried-"+kind, &r)
			text, page := capacityPages(t, r)
			if r.Retries == 0 || !strings.Contains(text, "not judged, run again: host busy") || !strings.Contains(text, "and run again") {
				t.Errorf("the output does not say which runs were retried:\n%s", text)
			}
			if strings.Count(page, `class="retried"`) != r.Retries || !strings.Contains(page, "Retried runs") {
				t.Errorf("capacity.html does not mark the %d retried runs", r.Retries)
			}
		})
	}
}

// TestCapacityHostStayedBusy: a search stopped by a busy host says the
// rate was not determined, never "at least".
func TestCapacityHostStayedBusy(t *testing.T) {
	var r capacity.Result
	search(t, "host-busy", &r)
	text, page := capacityPages(t, r)
	for _, want := range []string{"not determined: the load generator's host was too busy to generate 338 iterations/s (3 attempts)", "the SLO held up to 225 iterations/s"} {
		if !strings.Contains(text, want) {
			t.Errorf("the output lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "at least") {
		t.Errorf("the output claims a lower bound as the outcome:\n%s", text)
	}
	if !strings.Contains(page, `<div class="notice" id="warning">`) || !strings.Contains(page, "not determined") {
		t.Error("capacity.html does not warn that the rate was not determined")
	}
}

// TestCapacityUnjudgedAboveThePass: a search whose budget ended on a rate
// above its highest pass that no run judged says the capacity is at least
// the pass and that the rate above was not judged: not determined, never
// "the SLO held at … and failed at …". Trial A39 read "3,417 iterations/s
// (the SLO held at 3,417 iterations/s and failed at 4,271 iterations/s)"
// with 3,844/s unjudged, where a fixed-rate sweep held 3,844/s.
func TestCapacityUnjudgedAboveThePass(t *testing.T) {
	busy := capacity.Record{StepResult: capacity.StepResult{Rate: 3844, P95: 122 * time.Millisecond}, Phase: capacity.Bisect, Attempt: 1,
		Busy: "scheduling lag p99 61.2ms > 25.0ms", Retried: true}
	pass := capacity.Record{StepResult: capacity.StepResult{Rate: 3417, Throughput: 3409, Passed: true}, Phase: capacity.Raise, Attempt: 1, Judged: true}
	r := capacity.Result{Config: capacity.Config{RequestsPerIteration: 1, KneeFactor: 1.5}, Steps: []capacity.Record{pass, busy},
		Highest: 3417, HighestRequests: 3409, LowestFailing: 4271, Unjudged: 3844, Retries: 1, Stop: capacity.BudgetSpent}
	text, page := capacityPages(t, r)
	want := "highest sustainable rate not determined: at least 3,417 iterations/s, 3,409 req/s (3,844 iterations/s above it was not judged: " +
		"the generator's host was busy on every run of it, and the search ended (time budget spent) before one could be judged; the SLO failed at 4,271 iterations/s)"
	if !strings.Contains(text, want) || strings.Contains(text, "the SLO held at") {
		t.Errorf("the output lacks %q:\n%s", want, text)
	}
	if !strings.Contains(page, `<div class="notice" id="warning">`) || !strings.Contains(page, "3,844 iterations/s above it was not judged") {
		t.Error("capacity.html does not warn that the rate above the pass was not judged")
	}
}

// TestCapacityNothingJudged: a search that ran out of budget before any
// step was judged exits 3 (not determined) and says so, never "none found",
// which reads as a target that failed.
func TestCapacityNothingJudged(t *testing.T) {
	r := capacity.Result{Stop: capacity.BudgetSpent}
	text, page := capacityPages(t, r)
	if !strings.Contains(text, "not determined: no step could be judged (time budget spent)") || strings.Contains(text, "none found") {
		t.Errorf("the output does not say the rate was not determined:\n%s", text)
	}
	if !strings.Contains(page, "no step could be judged") {
		t.Error("capacity.html does not say the rate was not determined")
	}
}

// TestCapacityGeneratorSaturated: a search stopped by the VU ceiling says
// its result is a lower bound.
func TestCapacityGeneratorSaturated(t *testing.T) {
	var r capacity.Result
	search(t, "generator-saturated", &r)
	text, _ := capacityPages(t, r)
	if !strings.Contains(text, "at least 150 iterations/s") || !strings.Contains(text, "raise max_vus") || !strings.Contains(text, "describe the load generator") {
		t.Errorf("rendered search does not say the result is a lower bound set by the VU ceiling:\n%s", text)
	}
}

// TestCapacityVerdicts reads the verdict of each judging case's last run.
func TestCapacityVerdicts(t *testing.T) {
	var cases map[string]struct {
		Last capacity.Record
		Want string
	}
	search(t, "verdicts", &cases)
	if len(cases) < 5 {
		t.Fatalf("%d verdict cases", len(cases))
	}
	for name, c := range cases {
		if v := verdictText(c.Last, " "); !strings.Contains(v, c.Want) {
			t.Errorf("%s: last verdict %q, want %q", name, v, c.Want)
		}
	}
}

// TestCapacityVerdictOfAnEarlierBuild: a busy failure in a capacity.json
// without Stands (judged on latency alone) or with capacity's former
// LatencyStands words still reads as judged, and only the worded judgement
// of a build that writes one says "the target's".
func TestCapacityVerdictOfAnEarlierBuild(t *testing.T) {
	busy := "scheduling lag p99 200ms > 25.0ms"
	fail := capacity.StepResult{Rate: 200, FailedThresholds: []string{"p(95)"}}
	tests := []struct {
		name   string
		stands string
		want   string
	}{
		{"no Stands", "", "FAIL p(95) (on a busy host, but " + capacity.LatencyStands + ": " + busy + ")"},
		{"the former words", capacity.LatencyStands, "FAIL p(95) (the target's: " + capacity.LatencyStands + "; the host was busy too: " + busy + ")"},
		{"the target's errors", "it answered 20 of the 1,000 requests with errors no late arrival of the generator explains",
			"FAIL p(95) (the target's: it answered 20 of the 1,000 requests with errors no late arrival of the generator explains; the host was busy too: " + busy + ")"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if v := verdictText(capacity.Record{StepResult: fail, Busy: busy, Judged: true, Stands: tc.stands}, " "); v != tc.want {
				t.Errorf("verdict %q, want %q", v, tc.want)
			}
		})
	}
}

// TestCapacityUSL: a fit is shown only when it explains the data, its
// peak only when it lies within reach; otherwise the output says why.
func TestCapacityUSL(t *testing.T) {
	tests := []struct {
		name  string
		shown bool   // the fit is shown
		peak  bool   // its peak is shown
		note  string // why no fit is shown
	}{
		{"six passed steps on the curve", true, true, ""},
		{"three passed, three failed", false, false, "too few points for a scalability fit: 3 passed steps at distinct rates with clean measurements, 4 needed"},
		{"a busy step is left out", false, false, "too few points for a scalability fit: 3 passed steps"},
		{"scattered", false, false, "the USL does not fit these points (R² "},
		{"steps up to the peak", true, true, ""},
		{"steps far below the peak", true, false, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var r capacity.Result
			search(t, "usl-"+strings.ReplaceAll(tc.name, " ", "-"), &r)
			text, page := capacityPages(t, r)
			if strings.Contains(text, "λ=") != tc.shown || (!tc.shown && !strings.Contains(text, "scalability (USL fit) "+tc.note)) {
				t.Errorf("rendered:\n%s", text)
			}
			if tc.shown && strings.Contains(text, "an extrapolation, not shown") == tc.peak {
				t.Errorf("the peak shown: %v, want %v:\n%s", !tc.peak, tc.peak, text)
			}
			if strings.Contains(page, "USL peak") != tc.peak || (!tc.shown && !strings.Contains(page, tc.note)) {
				t.Errorf("capacity.html shows a USL peak: %v, want %v (or lacks the note)", strings.Contains(page, "USL peak"), tc.peak)
			}
		})
	}
}

// TestCapacityFirstFailureIsAJudgedRun: a run retried because the host was busy
// is not the first failure, though it did not pass.
func TestCapacityFirstFailureIsAJudgedRun(t *testing.T) {
	r := capacity.Result{Steps: []capacity.Record{
		{StepResult: capacity.StepResult{Rate: 60}, Attempt: 1, Busy: "scheduling lag p99 61ms > 12.5ms", Retried: true},
		{StepResult: capacity.StepResult{Rate: 60, Passed: true}, Attempt: 2, Judged: true},
		{StepResult: capacity.StepResult{Rate: 90, FailedThresholds: []string{"p(95) < 50ms"}}, Attempt: 1, Judged: true},
	}, FirstFailure: []string{"p(95) < 50ms"}, LowestFailing: 90, Highest: 60, Stop: capacity.Converged}
	var b strings.Builder
	if err := WriteCapacityText(&b, r); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "failed first              at 90 iterations/s") {
		t.Fatalf("rendered:\n%s", b.String())
	}
}

// TestCapacityRatesSayTheirUnit is the search of a flow of two
// requests: "offered 1,153/s" beside "done 2,306/s". Every rate says
// whether it counts iterations or requests, on both pages, and the
// highest sustainable rate is given in both.
func TestCapacityRatesSayTheirUnit(t *testing.T) {
	ms := time.Millisecond
	step := func(rate, done float64, p95 time.Duration, pass bool) capacity.Record {
		return capacity.Record{StepResult: capacity.StepResult{Rate: rate, Throughput: done, P95: p95, P99: p95, Passed: pass, Concurrency: done * 0.005},
			Phase: capacity.Raise, Attempt: 1, Judged: true}
	}
	r := capacity.Result{Config: capacity.Config{RequestsPerIteration: 2, KneeFactor: 1.5}, Highest: 1153, HighestRequests: 2306, LowestFailing: 1200,
		Knee:         &capacity.Knee{Rate: 1000, Throughput: 2000, P95: 6 * ms, Base: 5 * ms, NextRate: 1153, NextP95: 30 * ms},
		Steps:        []capacity.Record{step(500, 1000, 5*ms, true), step(1000, 2000, 6*ms, true), step(1153, 2306, 30*ms, true), step(1200, 2310, 90*ms, false)},
		FirstFailure: []string{"http_req_duration: p(95) < 50ms (p(95)=90.0ms)"}, Stop: capacity.Converged}
	text, page := capacityPages(t, r)
	for _, want := range []string{"highest sustainable rate 1,153 iterations/s, 2,306 req/s (the SLO held at 1,153 iterations/s and failed at 1,200 iterations/s)",
		"knee 1,000 iterations/s, 2,000 req/s: p95", "failed first at 1,200 iterations/s", "# phase iter/s req/s p95",
		"iter/s: iterations offered per second (2 requests each); req/s: requests completed per second of the hold"} {
		if !strings.Contains(text, want) {
			t.Errorf("the output lacks %q:\n%s", want, text)
		}
	}
	for _, want := range []string{"1,153 iterations/s", "2,306 req/s", "First failing rate", "1,200 iterations/s", "(2 requests each)",
		"offered iterations/s</th><th class=\"num\">offered req/s</th><th class=\"num\">done req/s", `"rate":1153,"offered":2306,"done":2306`} {
		if !strings.Contains(page, want) {
			t.Errorf("capacity.html lacks %q", want)
		}
	}
}

// TestCapacityKneeBelowTheFirstFailure renders the search whose knee sat
// at 1/s above its first failing 0.578/s: no knee is shown above it.
func TestCapacityKneeBelowTheFirstFailure(t *testing.T) {
	var r capacity.Result
	search(t, "knee-below-failure", &r)
	text, page := capacityPages(t, r)
	if !strings.Contains(text, "knee not found") || !strings.Contains(page, "0.578 iterations/s") || strings.Contains(page, `"knee_text"`) && !strings.Contains(page, `"knee":0`) {
		t.Errorf("rendered:\n%s", text)
	}
}

// TestCapacityTableFitsWithWideFigures: every cell at its widest at once —
// a host busy with a sliver of steal, four-digit rates, seconds of latency
// — still fits the terminal (a row with "99.1% st 0.864%" read 102 columns).
func TestCapacityTableFitsWithWideFigures(t *testing.T) {
	var r capacity.Result
	search(t, "retried-steal", &r)
	for i := range r.Steps {
		s := &r.Steps[i]
		s.HostKnown, s.HostCPU, s.HostSteal = true, 0.991, 0.00864
		s.Rate, s.Throughput = 1234.5, 2469.1
		s.P95, s.P99, s.LagP99 = 1234567*time.Microsecond, 2345678*time.Microsecond, 123456*time.Microsecond
		s.ErrorRate, s.Dropped, s.GeneratorCPU = 0.1234, 123456, 0.987
	}
	text, _ := capacityPages(t, r)
	if !strings.Contains(text, "99% st <1%") {
		t.Errorf("the host's cell is not in whole percents:\n%s", text)
	}
}
