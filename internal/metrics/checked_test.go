package metrics

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/sample"
)

// TestAddCountsChecksEverySum: AddCounts adds every count a merge adds,
// across endpoints and fields too (the run's "all endpoints" and an
// agent's errors add those), and names the first that would pass int64
// or is negative, adding nothing then.
func TestAddCountsChecksEverySum(t *testing.T) {
	layout := testLayout()
	for _, tc := range []struct {
		name   string
		before int64
		set    func(s *Snapshot)
		want   int64
		err    string
	}{
		{"small", 10, func(s *Snapshot) {
			s.Endpoints[0].Requests, s.Endpoints[0].Sent, s.Checks[1].Fails = 2, 300, 4
		}, 316, ""},
		{"one field past int64", 10, func(s *Snapshot) {
			s.Endpoints[2].Received = math.MaxInt64 - 5
		}, 10, `endpoint "POST /cart": bytes received: 9223372036854775802 would take the run's counts past the largest 64-bit integer (10 counted before it)`},
		{"two endpoints' requests, each below int64, past it together", 0, func(s *Snapshot) {
			s.Endpoints[0].Requests, s.Endpoints[1].Requests = 1<<62, 1<<62
		}, 0, `endpoint "GET /item/{id}": requests: 4611686018427387904 would take`},
		{"a count and a histogram's", 0, func(s *Snapshot) {
			s.Endpoints[1].Requests, s.Endpoints[1].Duration = 1<<62, hist62()
		}, 0, `endpoint "GET /item/{id}": duration histogram's count: 4611686018427387904 would take`},
		{"failures of two kinds", 1 << 62, func(s *Snapshot) {
			s.Endpoints[0].Failures[sample.Timeout], s.Endpoints[0].Failures[sample.HTTP5xx] = 1<<61, 1<<61
		}, 1 << 62, `endpoint "GET /": `},
		{"a check", math.MaxInt64, func(s *Snapshot) { s.Checks[0].Passes = 1 }, math.MaxInt64, `check "status is 200": passes: 1 would take`},
		{"a scenario", math.MaxInt64 - 1, func(s *Snapshot) { s.Scenarios[1].Offered = 2 }, math.MaxInt64 - 1, `scenario "buy": offered arrivals: 2 would take`},
		{"negative", 0, func(s *Snapshot) { s.Scenarios[0].Dropped = -3 }, 0, `scenario "browse": dropped iterations: negative value -3`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := NewSnapshot(1, layout)
			tc.set(s)
			got, err := s.AddCounts(tc.before, layout)
			if got != tc.want {
				t.Errorf("AddCounts = %d, want %d", got, tc.want)
			}
			switch {
			case tc.err == "" && err != nil:
				t.Errorf("AddCounts: %v", err)
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Errorf("AddCounts: %v, want %q", err, tc.err)
			}
		})
	}
}

// hist62 is a histogram of 2^62 samples of 1 ms.
func hist62() *Hist {
	h := NewHist()
	h.Record(time.Millisecond)
	for range 62 {
		h.Merge(h.Clone())
	}
	return h
}
