package capacityrun

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/app"
	"github.com/loadlens/loadlens/internal/capacity"
)

// results returns its results in turn, whatever rate is asked for.
type results struct {
	rs []capacity.StepResult
	n  int
}

func (r *results) RunStep(_ context.Context, s capacity.Step) (capacity.StepResult, error) {
	res := r.rs[min(r.n, len(r.rs)-1)]
	r.n++
	res.Rate = s.Rate
	return res, nil
}

// TestRecordedBurstsAndRefusals reads two steps of a search against a
// server that refuses with 503 past 400 requests/s (a bucket of 20), on a
// host kept busy by other work, under an SLO of no errors, and judges each
// as the search would. At 420/s the target refused 20 a second, in seconds
// where the generator held nothing back, 4.50 % in all: under the 5 % at
// which the diagnosis calls the errors the target's, so it distrusted the
// step and the search ran it again until it stopped with the host too busy.
// At 360/s it refused 23 requests, 20 in a second in which 54 iterations
// started a gap or more late and 3 in another with 141: bursts the stalls
// released, run again. At 375/s it refused 27 in a second whose latest
// start was only 13.6ms late but in which 39 iterations came with others,
// 32 in all: run again too (a bound on the longest stall's burst, twice
// rate × lag p99, judged it).
func TestRecordedBurstsAndRefusals(t *testing.T) {
	tests := []struct {
		db     string
		rate   float64
		judged bool
	}{
		{"limited-420-busy", 420, true},
		{"limited-360-burst", 360, false},
		{"limited-375-burst", 375, false},
	}
	for _, tc := range tests {
		t.Run(tc.db, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join("testdata", tc.db+".db"))
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(t.TempDir(), "run.db") // a copy: reading may touch the file
			if err := os.WriteFile(path, b, 0o600); err != nil {
				t.Fatal(err)
			}
			in, err := app.LoadRun(path)
			if err != nil {
				t.Fatal(err)
			}
			step := stepResult(in, capacity.Step{Rate: tc.rate, Hold: 10 * time.Second}, "")
			if step.Passed || step.Diagnosis == "" {
				t.Fatalf("the recorded step: passed %v, diagnosis %q; want a failure its diagnosis distrusts", step.Passed, step.Diagnosis)
			}
			pass := capacity.StepResult{Requests: 1000, Throughput: 100, Passed: true}
			cfg := capacity.Config{StartRate: tc.rate / 2, Factor: 2, Hold: 10 * time.Second, MaxErrorRate: 1e-9,
				LatencyLimit: 200 * time.Millisecond, Precision: 0.6, RetryPause: time.Millisecond}
			res, err := capacity.Search(context.Background(), cfg, &results{rs: []capacity.StepResult{pass, step, pass}})
			if err != nil {
				t.Fatal(err)
			}
			run := res.Steps[1]
			if run.Judged != tc.judged || run.Retried == tc.judged || (run.Stands != "") != tc.judged {
				t.Fatalf("%v/s at %.2f%% errors: judged %v, retried %v, stands %q; want judged %v", tc.rate, 100*step.ErrorRate,
					run.Judged, run.Retried, run.Stands, tc.judged)
			}
			if tc.judged && !strings.Contains(run.Stands, "it answered 50 of the 4,200 requests with errors no late arrival of the generator explains (of 189") {
				t.Errorf("stands %q", run.Stands)
			}
		})
	}
}
