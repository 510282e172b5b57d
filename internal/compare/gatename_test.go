package compare

import (
	"strings"
	"testing"
)

// TestGateEndpointNames: with named scenarios the rows are "b · GET /b";
// trial C's `p(95){endpoint:"GET /b"} +10%` answered `no endpoint "GET /b"`.
// A plain name that one scenario holds is that endpoint; one two scenarios
// share, or none, is an error that names the valid ones.
func TestGateEndpointNames(t *testing.T) {
	keys := []string{"a · GET /a", "b · GET /b", "c · GET /shared", "d · GET /shared"}
	rows := []Row{{Name: allEndpoints, Lines: []Line{{Metric: P95, Values: make([]Value, 1)}}}}
	for i, k := range keys { // row i's line has i+1 values: what tells which row a gate judged
		rows = append(rows, Row{Name: k, Lines: []Line{{Metric: P95, Values: make([]Value, i+2)}}})
	}
	r := &Report{Rows: rows, endpoints: keys}
	tests := []struct {
		endpoint string
		want     string // the row's name, or the error's words
		err      bool
	}{
		{"GET /b", "b · GET /b", false},
		{"b · GET /b", "b · GET /b", false},
		{"", allEndpoints, false},
		{"GET /shared", `endpoint "GET /shared" is in 2 scenarios: name one of "c · GET /shared", "d · GET /shared"`, true},
		{"GET /nowhere", `no endpoint "GET /nowhere" in the compared runs; its endpoints are: "a · GET /a", "b · GET /b"`, true},
		{"x · GET /b", `no endpoint "x · GET /b"`, true},
	}
	for _, tc := range tests {
		t.Run(tc.endpoint, func(t *testing.T) {
			l, err := r.line(Gate{Metric: P95, Endpoint: tc.endpoint})
			if tc.err {
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("err %v, want %q", err, tc.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := r.Rows[len(l.Values)-1].Name; got != tc.want {
				t.Fatalf("judged row %q, want %q", got, tc.want)
			}
		})
	}
}
