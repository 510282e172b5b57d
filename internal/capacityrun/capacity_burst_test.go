package capacityrun

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/app"
	"github.com/loadlens/loadlens/internal/capacity"
)

// shedder answers 503 at once when more than limit requests are in
// flight, and takes service per request otherwise: on time, its arrivals
// never come near the limit; released at once, they pass it. It counts
// what it refused itself, run by run.
type shedder struct {
	*httptest.Server
	inFlight, served atomic.Int64
	mu               sync.Mutex
	refused          []int64 // per run of a step, by the run's number
	run              int
}

func shedServer(t *testing.T, limit int64, service time.Duration, stallAfter int64, stall time.Duration) *shedder {
	s := &shedder{refused: []int64{0}}
	var once sync.Once
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.served.Add(1) == stallAfter {
			once.Do(func() { stopProcess(t, stall) })
		}
		if s.inFlight.Add(1) > limit {
			s.inFlight.Add(-1)
			s.mu.Lock()
			s.refused[s.run]++
			s.mu.Unlock()
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		defer s.inFlight.Add(-1)
		time.Sleep(service) // the service time under test, not synchronisation
	}))
	t.Cleanup(s.Close)
	return s
}

// stopProcess stalls the whole test process, the generator with it, for
// about d: a child stops it and continues it, as a host that took every
// CPU for d would. The arrivals due meanwhile start together when it
// continues, each late: a burst the generator caused.
func stopProcess(t *testing.T, d time.Duration) {
	pid := os.Getpid()
	cmd := exec.Command("sh", "-c", fmt.Sprintf("kill -STOP %d; sleep %s; kill -CONT %d", pid, strconv.FormatFloat(d.Seconds(), 'f', 3, 64), pid))
	if err := cmd.Start(); err != nil {
		t.Errorf("stalling the process: %v", err)
		return
	}
	go cmd.Wait() // reaps the child
}

// runs tells the shedder each run of a step as it starts, so that it
// counts the refusals of each apart, and leaves out of each run the
// diagnosis of a host other processes keep busy (a shared CI machine): a
// run is judged as on a quiet host, the case under test, on every figure
// but that sentence — its lag, its CPU and its seconds are as measured.
type runs struct {
	capacity.Runner
	s *shedder
}

func (r runs) RunStep(ctx context.Context, st capacity.Step) (capacity.StepResult, error) {
	r.s.mu.Lock()
	r.s.refused = append(r.s.refused, 0)
	r.s.run = len(r.s.refused) - 1
	r.s.mu.Unlock()
	res, err := r.Runner.RunStep(ctx, st)
	res.Diagnosis = ""
	return res, err
}

// TestABurstTheGeneratorCausedIsRunAgain is issue 20's search, live: a
// service that sheds past 40 requests in flight and takes 2ms a request
// holds 400/s on time (about one in flight); the whole process, generator
// and service, stops for 200ms once in the first run, and the 80 arrivals
// due meanwhile start together: the service refuses some 40 of them, in
// one second, under 1 % of the run, while the lag p99 stays under its
// limit. Before, the search judged that run failed and bisected down from
// 400/s; now it runs 400/s again, which holds. A host whose own stalls
// pass the lag limit in that run, or make the service refuse in the
// next, cannot show it: the test is skipped.
func TestABurstTheGeneratorCausedIsRunAgain(t *testing.T) {
	if testing.Short() {
		t.Skip("two or three runs of 15 seconds")
	}
	const rate, hold = 400, 15 * time.Second
	srv := shedServer(t, 40, 2*time.Millisecond, rate*hold.Milliseconds()/2000, 200*time.Millisecond) // stall mid-run
	p := parseTest(t, fmt.Sprintf(`
base_url: %s
thresholds:
  http_req_duration: ["p(95) < 400ms"]
  http_req_failed: ["rate == 0"]
scenarios:
  orders:
    rate: %d
    duration: 10s
    flow:
      - get: /
`, srv.URL, rate))
	runner := &stepRunner{cfg: CapacityConfig{Plan: p, Out: io.Discard}, dir: t.TempDir()}
	cfg := capacity.Config{StartRate: rate, MaxRate: rate, Hold: hold, Budget: 3 * hold, MaxErrorRate: 1e-9, LatencyLimit: 400 * time.Millisecond,
		RetryPause: time.Millisecond}
	res, err := capacity.Search(context.Background(), cfg, runs{runner, srv})
	if err != nil {
		t.Fatal(err)
	}
	for i, st := range res.Steps {
		t.Logf("run %d at %v/s: %.2f%% errors (the server refused %d), lag p99 %s, passed %v, retried %v, busy %q",
			i+1, st.Rate, 100*st.ErrorRate, srv.refused[i+1], st.LagP99, st.Passed, st.Retried, st.Busy)
	}
	if len(res.Steps) == 0 || srv.refused[1] == 0 || res.Steps[0].Passed {
		t.Skip("the stalled run did not fail on refusals (the host's own pauses moved the burst or flagged it first): no burst to judge; TestRecordedSheddingIsJudgedOnItsBursts judges recorded ones")
	}
	first := res.Steps[0]
	if strings.Contains(first.Busy, "scheduling lag") {
		t.Skipf("the host's own stalls flagged the stalled run busy: %s", first.Busy)
	}
	if first.Judged || !first.Retried || !strings.HasPrefix(first.Busy, "the generator's late arrivals explain its errors") {
		t.Fatalf("the stalled run at %v/s (%.2f%% errors): judged %v, busy %q; its refusals are the generator's burst's", first.Rate, 100*first.ErrorRate, first.Judged, first.Busy)
	}
	for i, st := range res.Steps[1:] {
		if !st.Passed {
			t.Skipf("the host's own stalls made the service refuse %d requests on run %d too", srv.refused[i+2], i+2)
		}
	}
	if res.Stop != capacity.MaxRateReached || res.Highest != rate || res.LowestFailing != 0 {
		t.Errorf("stop %q (%s), highest %v/s, first failing %v/s; want %d/s held", res.Stop, res.StopDetail, res.Highest, res.LowestFailing, rate)
	}
}

// TestRecordedSheddingIsJudgedOnItsBursts reads two runs of the shedder
// at 400/s under an SLO of no errors and judges each as the search would,
// on a host under every busy limit (the runs' diagnoses, which a shared
// machine's other processes filled, are left out as runs leaves them).
// shed-400-burst: past 16 in flight, 2ms a request; the process stopped
// for 150ms in its eighth second, where the service refused 38 requests
// and 96 iterations started late, and 7 more in the host's own stalls:
// 45, 0.75 %, the lag p99 32ms. Before, judged failed; now run again. shed-400-ontime:
// past 3 in flight, 8ms a request (375/s), it refused 32 % with its
// arrivals on time, past what any late arrival explains: judged.
func TestRecordedSheddingIsJudgedOnItsBursts(t *testing.T) {
	tests := []struct {
		db     string
		judged bool
	}{
		{"shed-400-burst", false},
		{"shed-400-ontime", true},
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
			step := stepResult(in, capacity.Step{Rate: 400, Hold: 15 * time.Second}, "")
			step.Diagnosis = ""
			if step.Passed || step.LagP99 >= 100*time.Millisecond {
				t.Fatalf("the recorded step: passed %v, lag p99 %s; want a failure under the lag limit", step.Passed, step.LagP99)
			}
			pass := capacity.StepResult{Requests: 1000, Throughput: 100, Passed: true}
			cfg := capacity.Config{StartRate: 200, Factor: 2, Hold: 15 * time.Second, MaxErrorRate: 1e-9,
				LatencyLimit: 400 * time.Millisecond, Precision: 0.6, RetryPause: time.Millisecond}
			res, err := capacity.Search(context.Background(), cfg, &results{rs: []capacity.StepResult{pass, step, pass}})
			if err != nil {
				t.Fatal(err)
			}
			run := res.Steps[1]
			if run.Judged != tc.judged || run.Retried == tc.judged || (run.Busy == "") != tc.judged {
				t.Fatalf("400/s at %.2f%% errors: judged %v, retried %v, busy %q; want judged %v", 100*step.ErrorRate, run.Judged, run.Retried, run.Busy, tc.judged)
			}
			if !tc.judged && !strings.Contains(run.Busy, "the generator's late arrivals explain its errors: 45 errors the target answered came in seconds with 277 late arrivals") {
				t.Errorf("busy %q", run.Busy)
			}
		})
	}
}

// TestBusySheddingIsJudgedOnItsServiceTime reads two runs of issue 20's
// trial service, which sheds past 12 requests in flight at 30ms a request,
// beside two `yes` processes and the host's other work, under an SLO of
// fewer than 1 % errors, and judges each as the search would, on its busy
// diagnosis. shed12-348-busy: at 348/s it refused 88 requests (3.16 %);
// 130 iterations started a gap (2.9ms) or more late, but only one later
// than its 30.7ms service time, the only lateness that raises what it
// holds: the refusals are its own, and the failure stands. Before, any
// arrival a gap late explained a refusal, the step was run again, and the
// search ended "not determined" on a rate the service cannot hold.
// shed12-150-stalled: at 150/s it refused 31 (2.58 %), 24 of them in a
// second in which 27 iterations started more than its 31ms service time
// late, released together by a stall: run again.
func TestBusySheddingIsJudgedOnItsServiceTime(t *testing.T) {
	tests := []struct {
		db     string
		rate   float64
		judged bool
		words  string // in its Stands, or its Busy when run again
	}{
		{"shed12-348-busy", 348.05, true, "it answered 87 of the 2,785 requests with errors no late arrival of the generator explains (of 88 errors it answered; 3.12%, over the error budget of 1%)"},
		{"shed12-150-stalled", 150, false, "the step's diagnosis"},
	}
	for _, tc := range tests {
		t.Run(tc.db, func(t *testing.T) {
			in, err := app.LoadRun(copyDB(t, tc.db))
			if err != nil {
				t.Fatal(err)
			}
			step := stepResult(in, capacity.Step{Rate: tc.rate, Hold: 8 * time.Second}, "")
			if step.Passed || step.Diagnosis == "" || step.Service < 30*time.Millisecond {
				t.Fatalf("the recorded step: passed %v, diagnosis %q, service %s; want a failure its diagnosis distrusts, of a 30ms service", step.Passed, step.Diagnosis, step.Service)
			}
			pass := capacity.StepResult{Requests: 1000, Throughput: 100, Passed: true}
			cfg := capacity.Config{StartRate: tc.rate / 2, Factor: 2, Hold: 8 * time.Second, MaxErrorRate: 0.01,
				LatencyLimit: 200 * time.Millisecond, Precision: 0.6, RetryPause: time.Millisecond}
			res, err := capacity.Search(context.Background(), cfg, &results{rs: []capacity.StepResult{pass, step, pass}})
			if err != nil {
				t.Fatal(err)
			}
			run := res.Steps[1]
			if run.Judged != tc.judged || run.Retried == tc.judged || (run.Stands != "") != tc.judged {
				t.Fatalf("%v/s at %.2f%% errors: judged %v, retried %v, stands %q, busy %q; want judged %v", tc.rate, 100*step.ErrorRate,
					run.Judged, run.Retried, run.Stands, run.Busy, tc.judged)
			}
			if got := run.Stands + run.Busy; !strings.Contains(got, tc.words) {
				t.Errorf("stands and busy %q, want %q in them", got, tc.words)
			}
		})
	}
}

// copyDB copies a recorded run.db of testdata to a folder of the test's:
// reading it may touch the file.
func copyDB(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name+".db"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "run.db")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}
