package report

import (
	"regexp"
	"strings"
	"testing"

	"github.com/loadlens/loadlens/internal/history"
)

// TestJUnitFailsARunThatDidNotEnd: a run interrupted, killed (read back
// incomplete), failed or partial, or whose exit code is not 0, has a
// failing case in JUnit when no failed threshold says so already: CI
// once read tests="2" failures="0" after Ctrl-C.
func TestJUnitFailsARunThatDidNotEnd(t *testing.T) {
	cases := []struct {
		status     string
		exit       int
		thresholds bool // all passing; else none
		want       string
	}{
		{"completed", 0, true, ""},
		{"completed", 0, false, ""},
		{"interrupted", 1, true, "INTERRUPTED: stopped before its end (Ctrl-C or SIGTERM) (the run&#39;s exit code: 1)"},
		{"interrupted", 1, false, "INTERRUPTED: stopped before its end"},
		{"incomplete", 1, false, "INCOMPLETE: the results are not all kept (the run&#39;s exit code: 1)"},                                                                                                           // run.db's end could not be written
		{"incomplete", history.NoExitCode, false, "INCOMPLETE: the run did not finish (killed, or its machine stopped, before its own summary; or it is still running): run.db recorded no end and no exit code\""}, // `report DIR --junit` of a kill -9'd run
		{"failed", 1, true, "RUN FAILED: an error stopped the run"},
		{"partial", 1, false, "PARTIAL LOAD: an agent was lost"},
		{"completed", 1, true, "an output could not be written (the run&#39;s exit code: 1)"},
	}
	for _, c := range cases {
		in := fixture(t)
		if c.thresholds {
			for i := range in.Results {
				in.Results[i].Pass, in.Results[i].Reason = true, ""
			}
		} else {
			in.Thresholds, in.Results = nil, nil
		}
		in.Status, in.ExitCode = c.status, c.exit
		b, err := JUnit(in)
		if err != nil {
			t.Fatal(err)
		}
		ju := string(b)
		failures := regexp.MustCompile(`<testsuites [^>]*failures="(\d+)"`).FindStringSubmatch(ju)
		if c.want == "" {
			if failures == nil || failures[1] != "0" || strings.Contains(ju, `type="run"`) {
				t.Errorf("%s exit %d: a run that passed fails in JUnit:\n%s", c.status, c.exit, ju)
			}
			continue
		}
		if failures == nil || failures[1] == "0" || !strings.Contains(ju, `<failure message="`+c.want) {
			t.Errorf("%s exit %d (thresholds %v): JUnit has no failing case %q:\n%s", c.status, c.exit, c.thresholds, c.want, ju)
		}
	}
}
