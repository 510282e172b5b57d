package report

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/capacity"
)

func TestCapacityHTML(t *testing.T) {
	r := capacity.Result{Highest: 195, LowestFailing: 200, Stop: capacity.Converged, Knee: &capacity.Knee{Rate: 190},
		Steps: []capacity.Record{
			{StepResult: capacity.StepResult{Rate: 100, Throughput: 100, P95: 20 * time.Millisecond, P99: 22 * time.Millisecond, Passed: true}, Phase: capacity.Raise},
			{StepResult: capacity.StepResult{Rate: 200, Throughput: 199, P95: 300 * time.Millisecond, P99: 400 * time.Millisecond,
				FailedThresholds: []string{`http_req_duration: p(95) < 80ms (p(95)=300ms) </script><b>`}}, Phase: capacity.Raise},
		}}
	var b bytes.Buffer
	if err := WriteCapacityHTML(&b, r, `shop<img src=x>`, 80*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, want := range []string{"Content-Security-Policy", "195 iterations/s", `"slo":80`, `"knee":190`, "shop&lt;img src=x&gt;", "&lt;/script&gt;&lt;b&gt;"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if strings.Contains(page, "<img src=x>") || strings.Count(page, "</script>") != strings.Count(page, "<script") {
		t.Error("markup from the run reached the page unescaped")
	}
}

// TestCapacityHeadlineSaysWhoseHostWasBusy: capacity.html's headline says
// whose host was too busy in the words of the terminal's, the load
// generator's or the target's (other processes took its CPU, a step
// Starved); before, it read "the host was too busy at 338 iterations/s"
// and "(the host was busy)" whichever it was.
func TestCapacityHeadlineSaysWhoseHostWasBusy(t *testing.T) {
	hostBusy := func(starved string) capacity.Result {
		var r capacity.Result
		search(t, "host-busy", &r)
		r.Steps[len(r.Steps)-1].Starved = starved
		return r
	}
	unjudged := func(starved string) capacity.Result {
		busy := capacity.Record{StepResult: capacity.StepResult{Rate: 3844, P95: 122 * time.Millisecond}, Phase: capacity.Bisect, Attempt: 1,
			Busy: "scheduling lag p99 61.2ms > 25.0ms", Retried: true}
		busy.Starved = starved
		pass := capacity.Record{StepResult: capacity.StepResult{Rate: 3417, Throughput: 3409, Passed: true}, Phase: capacity.Raise, Attempt: 1, Judged: true}
		return capacity.Result{Config: capacity.Config{RequestsPerIteration: 1}, Steps: []capacity.Record{pass, busy},
			Highest: 3417, HighestRequests: 3409, LowestFailing: 4271, Unjudged: 3844, Retries: 1, Stop: capacity.BudgetSpent}
	}
	const starved = "target-host-busy: other processes took 1.2 of 2 cores"
	cases := []struct {
		name string
		r    capacity.Result
		want string // in the terminal's headline and capacity.html's
	}{
		{"the generator's host stayed busy", hostBusy(""), "the load generator's host was too busy to generate 338 iterations/s (3 attempts)"},
		{"the target's host stayed busy", hostBusy(starved), "the host was too busy: other processes took the target's CPU at 338 iterations/s (3 attempts)"},
		{"a rate above the pass unjudged on the generator's host", unjudged(""), "the generator's host was busy"},
		{"a rate above the pass unjudged on the target's host", unjudged(starved), "the host was busy (other processes took the target's CPU)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			text, _ := capacityPages(t, tc.r)
			if !strings.Contains(text, tc.want) {
				t.Errorf("the terminal lacks %q:\n%s", tc.want, text)
			}
			if h := capacityHeadline(tc.r)[0]; !strings.Contains(h.Value+" "+h.Sub, tc.want) {
				t.Errorf("capacity.html's headline reads %q · %q, lacks %q", h.Value, h.Sub, tc.want)
			}
		})
	}
}
