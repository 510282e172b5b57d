package app

import (
	"errors"
	"fmt"
	"testing"

	"github.com/loadlens/loadlens/internal/plan"
)

func TestExitCodes(t *testing.T) {
	cases := []struct {
		name string
		got  int
		want int
	}{
		{"a test file's errors", ExitCodeOf(plan.Errors{&plan.Error{Msg: "bad"}}), ExitBadInput},
		{"one test file error, wrapped", ExitCodeOf(fmt.Errorf("loading: %w", &plan.Error{Msg: "bad"})), ExitBadInput},
		{"a usage error", ExitCodeOf(fmt.Errorf("%w: compare takes runs", ErrUsage)), ExitBadInput},
		{"any other failure", ExitCodeOf(errors.New("disk full")), ExitRunFailed},
		{"a passed run that then failed", ExitAfter(ExitOK, errors.New("report.html")), ExitRunFailed},
		{"a failed threshold stays", ExitAfter(ExitThresholdFailed, errors.New("report.html")), ExitThresholdFailed},
		{"no error", ExitAfter(ExitThresholdFailed, nil), ExitThresholdFailed},
		{"an incomplete run", exitCode(StatusIncomplete, false), ExitRunFailed},
		{"a failed threshold", exitCode(StatusCompleted, false), ExitThresholdFailed},
		{"interrupted", exitCode(StatusInterrupted, true), ExitRunFailed},
		{"passed", exitCode(StatusCompleted, true), ExitOK},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("%s: exit %d, want %d", c.name, c.got, c.want)
		}
	}
}
