package history

import "testing"

// TestRunResult checks the result word of a run as history keeps it: a
// run no threshold judged never reads "passed", and one whose requests all
// failed says so (the s34 trial: history called runs "passed" that `runs`
// called "no thresholds" and whose summaries read ALL FAILED).
func TestRunResult(t *testing.T) {
	zero, two := 0, 2
	cases := []struct {
		name string
		run  Run
		want string
	}{
		{"no thresholds", Run{Status: "completed", Thresholds: &zero, Requests: 10, ErrorRate: 0.1}, "no thresholds"},
		{"every request failed, no thresholds", Run{Status: "completed", Thresholds: &zero, Requests: 10, ErrorRate: 1}, "all failed"},
		{"every request failed in a record of an earlier build", Run{Status: "completed", Requests: 10, ErrorRate: 1}, "all failed"},
		{"thresholds passed", Run{Status: "completed", Thresholds: &two, Requests: 10}, "passed"},
		{"a record of an earlier build, exit 0", Run{Status: "completed", Requests: 10}, "passed"},
		{"a threshold failed", Run{Status: "completed", ExitCode: 99, Thresholds: &two, Requests: 10, ErrorRate: 1}, "failed"},
		{"abort_on_fail", Run{Status: "aborted", ExitCode: 99, Thresholds: &two, Requests: 10}, "failed (aborted)"},
		{"a capacity search on a host too busy", Run{Status: "completed", ExitCode: 3, Requests: 10, Capacity: &Capacity{Stop: "host too busy"}}, "not determined"},
		{"an error stopped it", Run{Status: "failed", ExitCode: 1, Thresholds: &zero}, "run failed"},
		{"Ctrl-C", Run{Status: "interrupted", ExitCode: 130, Thresholds: &zero, Requests: 10, ErrorRate: 1}, "interrupted"},
		{"no request sent", Run{Status: "completed", Thresholds: &zero}, "no thresholds"},
		{"no thresholds, its generator limited it", Run{Status: "completed", Thresholds: &zero, Requests: 10, Disturbed: "generator-bound"}, "no thresholds (generator)"},
		{"thresholds passed, the host limited it", Run{Status: "completed", Thresholds: &two, Requests: 10, Disturbed: "generator-host-busy"}, "passed (generator)"},
		{"a threshold failed, the generator limited it", Run{Status: "completed", ExitCode: 99, Thresholds: &two, Requests: 10, Disturbed: "generator-bound"}, "failed (generator)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.run.Result(); got != tc.want {
				t.Errorf("Result() = %q, want %q", got, tc.want)
			}
		})
	}
}
