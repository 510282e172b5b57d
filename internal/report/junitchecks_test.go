package report

import (
	"strings"
	"testing"

	"github.com/loadlens/loadlens/internal/threshold"
)

// TestJUnitCheckFailsOnlyWithItsThreshold: a failed check is a JUnit
// <failure> only when a failed threshold on checks selects it; under a
// passing verdict it is reported as output, so CI reads PASS as the exit
// code says (it read a failure under PASS, exit 0).
func TestJUnitCheckFailsOnlyWithItsThreshold(t *testing.T) {
	const failure = `<failure message="12 of 201 failed (94.03% passed)" type="check">`
	for _, tc := range []struct {
		key, expr string
		want      bool
	}{
		{"checks", "rate>0.99", true},
		{`checks{check:"status is 200"}`, "rate>0.99", true},
		{`checks{scenario:buy}`, "rate>0.99", false},
		{"checks", "rate>0.9", false},
	} {
		in := fixture(t)
		th, err := threshold.New(tc.key, tc.expr)
		if err != nil {
			t.Fatal(err)
		}
		in.Thresholds = []threshold.Threshold{th}
		in.Results = []threshold.Result{in.Run.Evaluate(&th)}
		b, err := JUnit(in)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(string(b), failure); got != tc.want {
			t.Errorf("%s %s: a <failure> for the failed check is %v, want %v\n%s", tc.key, tc.expr, got, tc.want, b)
		}
	}
}
