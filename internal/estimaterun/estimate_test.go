package estimaterun

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/loadlens/loadlens/internal/app"
	"github.com/loadlens/loadlens/internal/capacity"
	"github.com/loadlens/loadlens/internal/estimate"
	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/store"
	"github.com/loadlens/loadlens/internal/threshold"
)

// TestEstimateInstancesFromACapacitySearch: the search of a flow of
// two requests held 1,153 iterations/s, 2,306 req/s; `--rps 5000` read the
// iterations as requests and asked for 5 instances where 3 suffice. A
// search in which no step failed gives a lower bound, and says so.
func TestEstimateInstancesFromACapacitySearch(t *testing.T) {
	tests := []struct {
		name   string
		res    capacity.Result
		rps    float64
		want   []string
		notIn  string
		errHas string
	}{
		{name: "two requests per iteration", res: capacity.Result{Config: capacity.Config{RequestsPerIteration: 2}, Highest: 1153, LowestFailing: 1200},
			rps: 5000, want: []string{"(the capacity search in", ": 1,153 iterations/s × 2 requests = 2,306 req/s over 1 instance)", "= 3 instances"}, notIn: "at most"},
		{name: "one request per iteration", res: capacity.Result{Config: capacity.Config{RequestsPerIteration: 1}, Highest: 125, LowestFailing: 130},
			rps: 1000, want: []string{"125 iterations/s × 1 request = 125 req/s over 1 instance", "= 8 instances"}, notIn: "at most"},
		{name: "no step failed: at least", res: capacity.Result{Config: capacity.Config{RequestsPerIteration: 2}, Highest: 500, Stop: capacity.MaxRateReached},
			rps: 5000, want: []string{"÷ at least 1,000 req/s per instance", "at least 500 iterations/s × 2 requests = 1,000 req/s, as no step failed the SLO",
				"instances, at most", "= 5 instances", "at most 5 instances", "never pushed to its limit"}},
		// Trial C (cap/w2b): the host was too busy to judge 60/s, so 40/s is a floor for that reason.
		{name: "no step failed, cut short by a busy host", res: capacity.Result{Config: capacity.Config{RequestsPerIteration: 1}, Highest: 40, Stop: capacity.HostBusy,
			StopDetail: "the load generator's host could not generate 60 iterations/s: busy on each of 3 attempts (last: scheduling lag p99 38.0ms > 15.0ms)"},
			rps: 100, want: []string{"as no step failed the SLO before the search was cut short (host too busy) over 1 instance",
				"(host too busy: the load generator's host could not generate 60 iterations/s: busy on each of 3 attempts)",
				"a floor because the capacity search was cut short", "= 3 instances"}, notIn: "scheduling lag"},
		{name: "an older capacity.json", res: capacity.Result{Highest: 125, LowestFailing: 130}, rps: 1000, errHas: "does not say how many requests an iteration sent"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			b, err := json.Marshal(tc.res)
			if err != nil {
				t.Fatal(err)
			}
			if tc.errHas != "" { // as an older build wrote it: no requests per iteration
				b = []byte(strings.Replace(string(b), `"RequestsPerIteration":0,`, "", 1))
			}
			if err := os.WriteFile(filepath.Join(dir, "capacity.json"), b, 0o644); err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			err = Estimate(EstimateConfig{Input: estimate.Input{RPS: tc.rps, Headroom: 1}, FromRun: dir, RunInst: 1, Out: &out})
			if tc.errHas != "" {
				if err == nil || !strings.Contains(err.Error(), tc.errHas) {
					t.Fatalf("err %v, want %q", err, tc.errHas)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			flat := strings.Join(strings.Fields(out.String()), " ") // a formula may wrap anywhere
			for _, want := range tc.want {
				if !strings.Contains(flat, want) {
					t.Errorf("want %q in:\n%s", want, out.String())
				}
			}
			if tc.notIn != "" && strings.Contains(flat, tc.notIn) {
				t.Errorf("%q in:\n%s", tc.notIn, out.String())
			}
			for i, line := range strings.Split(out.String(), "\n") {
				if n := utf8.RuneCountInString(line); n > 100 {
					t.Errorf("line %d is %d columns wide:\n%s", i+1, n, line)
				}
			}
		})
	}
}

// writeFailingRun writes a run.db of secs seconds at reqs requests, the
// share failed of them answered 503, every duration d, judged by defs.
func writeFailingRun(t *testing.T, dir string, defs []threshold.Threshold, secs, reqs int, failed float64, d time.Duration) string {
	t.Helper()
	return writeRun(t, dir, defs, runSeconds(secs, reqs, failed, d))
}

// runSecond is one second of a run writeRun writes.
type runSecond struct {
	reqs    int
	failed  float64 // the share answered 503
	d       time.Duration
	offered int64 // arrivals the schedule offered; 0: none recorded
}

// runSeconds is n seconds alike.
func runSeconds(n, reqs int, failed float64, d time.Duration) []runSecond {
	out := make([]runSecond, n)
	for i := range out {
		out[i] = runSecond{reqs: reqs, failed: failed, d: d}
	}
	return out
}

// writeRun writes a run.db of the seconds given, judged by defs.
func writeRun(t *testing.T, dir string, defs []threshold.Threshold, secs []runSecond) string {
	t.Helper()
	src := "base_url: http://127.0.0.1:1\nscenarios:\n  s:\n    model: arrival-rate\n    rate: 10\n    duration: 1s\n" +
		"    flow:\n      - get: /\n"
	p, err := plan.Parse("f.yaml", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	w, err := store.Create(filepath.Join(dir, "run.db"), store.Meta{ID: "f", Name: "f", Version: "test", Start: time.Unix(1e9, 0),
		Layout: p.Layout, Extra: map[string]string{"thresholds": app.EncodeThresholds(defs)}})
	if err != nil {
		t.Fatal(err)
	}
	for sec, rs := range secs {
		snap := metrics.NewSnapshot(sec, p.Layout)
		es := &snap.Endpoints[0]
		es.Duration, es.Waiting = metrics.NewHist(), metrics.NewHist()
		for range rs.reqs {
			es.Duration.Record(rs.d)
			es.Waiting.Record(rs.d)
		}
		es.Requests = int64(rs.reqs)
		es.Failures[sample.HTTP5xx] = int64(math.Round(rs.failed * float64(rs.reqs)))
		snap.Scenarios[0].Offered = rs.offered
		if err := w.WriteSecond(snap); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Finish(store.Finish{End: time.Unix(1e9+int64(len(secs)), 0), Status: app.StatusCompleted, Elapsed: time.Duration(len(secs)) * time.Second}); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestEstimateFromARunCountsSuccessesWithinTheSLO: the field trial's case 3
// run (65 % 503s, p95 3 s, 400 req/s offered) was planned as 16 instances of
// 242 req/s; failed requests and seconds past the SLO are not capacity.
func TestEstimateFromARunCountsSuccessesWithinTheSLO(t *testing.T) {
	slo := func(kv ...string) []threshold.Threshold {
		var defs []threshold.Threshold
		for i := 0; i+1 < len(kv); i += 2 {
			th, err := threshold.New(kv[i], kv[i+1])
			if err != nil {
				t.Fatal(err)
			}
			defs = append(defs, th)
		}
		return defs
	}
	tests := []struct {
		name        string
		defs        []threshold.Threshold
		in          estimate.Input
		reqs        int
		failed      float64
		d           time.Duration
		wantErr     error
		wantInFlat  []string
		wantNoInOut string
		wantInErr   []string // in the error, spaces collapsed
	}{
		{name: "case 3: 65% failed, p95 3s: no sustainable rate",
			defs: slo("http_req_duration", "p(95) < 100ms", "http_req_failed", "rate < 0.01"),
			in:   estimate.Input{RPS: 3700}, reqs: 400, failed: 0.65, d: 3 * time.Second,
			wantErr: ErrNoSustainableRate, wantNoInOut: "instances",
			wantInErr: []string{"errors < 1% failed in 18 of 18 seconds",
				"p(95) < 100ms failed in 18 of 18 seconds: more than 5% of requests failed, more than p(95) leaves out"}},
		{name: "half failed fast within --max-errors 99%: the p(95) limit fails on the failures it leaves out",
			in: estimate.Input{RPS: 1000, MaxErrors: 0.99}, reqs: 400, failed: 0.5, d: 500 * time.Microsecond,
			wantErr: ErrNoSustainableRate, wantNoInOut: "instances",
			wantInErr: []string{"p(95) < 1s (the starter test's) and errors < 99% (given) (p(95) < 1s failed in 18 of 18 seconds: " +
				"more than 5% of requests failed, more than p(95) leaves out)"}},
		{name: "failures within the budget: only the successes count",
			defs: slo("http_req_failed", "rate < 0.10"),
			in:   estimate.Input{RPS: 3700}, reqs: 400, failed: 0.05, d: 50 * time.Millisecond,
			wantInFlat: []string{"3,700 req/s ÷ at least 380 req/s per instance", "= 10 instances", "380 req/s on average over the 18 seconds of its steady part"}},
		{name: "--latency-goal and --max-errors replace the run's thresholds",
			defs: slo("http_req_duration", "p(95) < 10ms"),
			in:   estimate.Input{RPS: 3700, LatencyGoal: time.Second, MaxErrors: 0.02}, reqs: 400, failed: 0.01, d: 50 * time.Millisecond,
			wantInFlat: []string{"÷ at least 396 req/s per instance", "p(95) < 1s (given) and errors < 2% (given)",
				"note: the run's http_req_duration p(95) < 10ms gave way to the --latency-goal or --max-errors given"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := writeFailingRun(t, t.TempDir(), tt.defs, 20, tt.reqs, tt.failed, tt.d)
			var out bytes.Buffer
			err := Estimate(EstimateConfig{Input: tt.in, FromRun: dir, Out: &out})
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("err = %v, want %v; printed:\n%s", err, tt.wantErr, out.String())
			}
			flat := strings.Join(strings.Fields(out.String()), " ")
			for _, want := range tt.wantInErr {
				if got := strings.Join(strings.Fields(err.Error()), " "); !strings.Contains(got, want) {
					t.Errorf("want %q in the error:\n%s", want, err)
				}
			}
			for _, want := range tt.wantInFlat {
				if !strings.Contains(flat, want) {
					t.Errorf("want %q in:\n%s", want, out.String())
				}
			}
			if tt.wantNoInOut != "" && strings.Contains(out.String(), tt.wantNoInOut) {
				t.Errorf("printed an instance count for a run that sustained nothing:\n%s", out.String())
			}
			if err != nil {
				for _, line := range strings.Split("loadlens: "+err.Error(), "\n") { // as fail prints it
					if n := utf8.RuneCountInString(line); n > 100 {
						t.Errorf("error line is %d columns: %s", n, line)
					}
				}
			}
		})
	}
}

// TestEstimateFromARunSaysWhatItCanConclude: the run offered 80
// req/s to an instance that sustains 2,306 and read "79.9 req/s per
// instance"; its `rate == 0` error threshold was dropped without a word. A
// run every second of which met the SLO gives a lower bound and an upper
// bound on instances; a run that went past the SLO gives the rate of its
// good seconds. Every threshold is judged or named.
func TestEstimateFromARunSaysWhatItCanConclude(t *testing.T) {
	ms := time.Millisecond
	defs := func(kv ...string) []threshold.Threshold {
		var out []threshold.Threshold
		for i := 0; i+1 < len(kv); i += 2 {
			th, err := threshold.New(kv[i], kv[i+1])
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, th)
		}
		return out
	}
	slo := defs("http_req_duration", "p(95) < 100ms", "http_req_failed", "rate == 0")
	tests := []struct {
		name  string
		defs  []threshold.Threshold
		secs  []runSecond
		want  []string
		notIn []string
	}{
		{name: "80 req/s in every second: at least, and at most so many instances", defs: slo, secs: runSeconds(20, 80, 0, 5*ms),
			want: []string{"5,000 req/s ÷ at least 80 req/s per instance", "instances, at most", "= 63 instances", "at most 63 instances",
				"80 req/s on average over the 18 seconds of its steady part, every one within the run's thresholds http_req_duration p(95) < 100ms, http_req_failed rate == 0, so the run never reached the target's limit",
				"note: one instance sustained at least 80 req/s but was never pushed to its limit"}},
		{name: "past the SLO in some seconds: the rate it held", defs: slo, secs: every4th(runSecond{reqs: 400, failed: 0, d: 20 * ms}, runSecond{reqs: 400, failed: 0, d: 300 * ms}),
			want:  []string{"5,000 req/s ÷ 400 req/s per instance", "= 13 instances", "400 req/s over the 14 of its steady part's 18 seconds that met"},
			notIn: []string{"at least", "at most"}},
		{name: "rate == 0: a second with one failed request does not count", defs: slo, secs: every4th(runSecond{reqs: 400, failed: 0, d: 20 * ms}, runSecond{reqs: 400, failed: 0.01, d: 20 * ms}),
			want:  []string{"5,000 req/s ÷ 400 req/s per instance", "over the 14 of its steady part's 18 seconds that met the run's thresholds http_req_duration p(95) < 100ms, http_req_failed rate == 0"},
			notIn: []string{"at least"}},
		{name: "thresholds no second can be judged on are named",
			defs: append(defs("checks", "rate > 0.99", "http_req_duration{endpoint:GET /}", "p(95) < 50ms"), slo...),
			secs: every4th(runSecond{reqs: 400, failed: 0, d: 20 * ms}, runSecond{reqs: 400, failed: 0, d: 300 * ms}),
			want: []string{"note: the run's thresholds checks rate > 0.99, http_req_duration{endpoint:GET /} p(95) < 50ms cannot be judged on one second"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeRun(t, t.TempDir(), tc.defs, tc.secs)
			var out bytes.Buffer
			if err := Estimate(EstimateConfig{Input: estimate.Input{RPS: 5000}, FromRun: dir, Out: &out}); err != nil {
				t.Fatal(err)
			}
			flat := strings.Join(strings.Fields(out.String()), " ")
			for _, want := range tc.want {
				if !strings.Contains(flat, want) {
					t.Errorf("want %q in:\n%s", want, out.String())
				}
			}
			for _, no := range tc.notIn {
				if strings.Contains(flat, no) {
					t.Errorf("%q in:\n%s", no, out.String())
				}
			}
		})
	}
}

// every4th is 20 seconds like good, every fourth of them like bad.
func every4th(good, bad runSecond) []runSecond {
	out := runSeconds(20, good.reqs, good.failed, good.d)
	for i := 3; i < len(out); i += 4 {
		out[i] = bad
	}
	return out
}

// TestEstimateFromARampReadsItsBestSeconds: the s35 trial's ramp (50 →
// 260/s over 12 s against a target the capacity search put at 186/s) was
// averaged over the ramp into 137 req/s per instance and 4 instances; a
// ramp's rate is the most it kept over estimate.RampWindow good seconds.
func TestEstimateFromARampReadsItsBestSeconds(t *testing.T) {
	ms := time.Millisecond
	var secs []runSecond
	for i, n := range []int{58, 76, 93, 111, 125, 149, 164, 178, 190, 200, 210} {
		d := 20 * ms
		if i >= 8 {
			d = 400 * ms // past the knee: the queue grows
		}
		secs = append(secs, runSecond{reqs: n, d: d, offered: int64(n)})
	}
	th, err := threshold.New("http_req_duration", "p(95) < 100ms")
	if err != nil {
		t.Fatal(err)
	}
	dir := writeRun(t, t.TempDir(), []threshold.Threshold{th}, secs)
	var out bytes.Buffer
	if err := Estimate(EstimateConfig{Input: estimate.Input{RPS: 500}, FromRun: dir, Out: &out}); err != nil {
		t.Fatal(err)
	}
	flat := strings.Join(strings.Fields(out.String()), " ")
	for _, want := range []string{"500 req/s ÷ 164 req/s per instance", "= 4 instances",
		"the most its load ramp kept over 3 seconds in a row that each met the run's thresholds http_req_duration p(95) < 100ms",
		"note: the run ramps its load"} {
		if !strings.Contains(flat, want) {
			t.Errorf("want %q in:\n%s", want, out.String())
		}
	}
}
