package comparerun

import (
	"bytes"
	"strings"
	"testing"

	"github.com/loadlens/loadlens/internal/app"
)

// TestGateOnAnUnknownEndpointIsABadArgument: a gate naming an endpoint the
// runs do not have is a mistake in the command, as a gate that does not
// parse is: exit 2 naming it and the endpoints there are, before any
// report. It exited 99, a regression the runs never had.
func TestGateOnAnUnknownEndpointIsABadArgument(t *testing.T) {
	dir := t.TempDir()
	at := func(int) second { return second{reqs: 50} }
	a := writeRunDB(t, dir, "a", steadyTest, "", 40, 20, at)
	b := writeRunDB(t, dir, "b", steadyTest, "", 40, 20, at)
	for _, tc := range []struct {
		name  string
		gates []string
		bad   bool
		says  []string
	}{
		{"a typo", []string{`p(95){endpoint:"GET /nowhere"} +10%`}, true,
			[]string{`--fail-on-regression: gate "p(95){endpoint:\"GET /nowhere\"} +10%": no endpoint "GET /nowhere" in the compared runs; its endpoints are: "GET /"`}},
		{"a typo beside a good gate", []string{"p(50) +10%", `req/s{endpoint:"POST /x"} -5%`}, true, []string{`no endpoint "POST /x"`, `"GET /"`}},
		{"every bad gate at once", []string{`p(95){endpoint:"GET /x"} +10%`, `p(99){endpoint:"GET /y"} +10%`}, true, []string{`"GET /x"`, `"GET /y"`}},
		{"the endpoint the runs have", []string{`p(95){endpoint:"GET /"} +10%`}, false, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			code, err := Compare(CompareConfig{Runs: []string{a, b}, Out: &out, Gates: tc.gates})
			if !tc.bad {
				if err != nil || code == app.ExitBadInput || code == app.ExitThresholdFailed {
					t.Fatalf("exit %d, err %v; want the gate judged:\n%s", code, err, out.String())
				}
				return
			}
			if code != app.ExitBadInput || err == nil {
				t.Fatalf("exit %d, err %v; want exit %d:\n%s", code, err, app.ExitBadInput, out.String())
			}
			for _, w := range tc.says {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("the error lacks %q: %v", w, err)
				}
			}
			if out.Len() != 0 {
				t.Errorf("a refused command printed a report:\n%s", out.String())
			}
		})
	}
}
