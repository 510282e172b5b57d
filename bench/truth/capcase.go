package main

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"time"
)

// estimateFactor sets estimate's --rps to this many times the true
// capacity, so the true instance count is ceil(4.5) = 5.
const estimateFactor = 4.5

// CapRecord is a capacity case: the sweep's truth and each `loadlens
// capacity` search and `loadlens estimate --from-run` scored against it.
type CapRecord struct {
	Case       string        `json:"case"`
	Truth      float64       `json:"true_capacity"` // requests per second; 0 when the sweep found none
	Sweep      []SweepStep   `json:"sweep"`
	Unjudged   string        `json:"unjudged,omitempty"` // the sweep could not say
	LowerBound float64       `json:"lower_bound"`        // the highest rate that held, even when the sweep could not finish
	Searches   []SearchScore `json:"searches"`
	WallS      float64       `json:"wall_s"`
	Error      string        `json:"error,omitempty"`
}

// SearchScore is one `loadlens capacity` search and the estimate from it.
type SearchScore struct {
	Rep          int             `json:"rep"`
	Outcome      CapacityOutcome `json:"outcome"`
	ErrorPct     float64         `json:"error_pct"` // (loadlens − truth) / truth × 100
	Judged       bool            `json:"judged"`
	Unjudged     string          `json:"unjudged,omitempty"`
	Other        Busy            `json:"other_cores"`
	Exit         int             `json:"exit"`
	EstimateRPS  float64         `json:"estimate_rps"`
	EstimateWant int             `json:"estimate_want"` // ceil(rps / truth)
	EstimateGot  int             `json:"estimate_got"`  // 0: estimate gave no count
	EstimateExit int             `json:"estimate_exit"`
	EstimateOut  string          `json:"estimate_out"`
	Recheck      *SweepStep      `json:"recheck,omitempty"` // the harness's own step at loadlens's rate, when that is above the sweep's
	Truth        float64         `json:"truth"`             // the capacity scored against: the sweep's, or loadlens's rate when the recheck held
}

// searchBudget is a search's time: 4 minutes, or 16 steps when they are
// longer (run 7's mix search at 30 s steps spent 4 minutes before it converged).
func searchBudget(hold time.Duration) time.Duration { return max(4*time.Minute, 16*hold) }

// stepHold is how long each of a case's sweep and capacity steps holds
// its rate.
func (s *Session) stepHold(c CapCase) time.Duration {
	switch {
	case s.Quick:
		return 5 * time.Second
	case c.Hold > 0:
		return c.Hold
	}
	return 10 * time.Second
}

// RunCapacity measures a capacity case: the sweep once, then repeat
// searches by loadlens on the same running target.
func (s *Session) RunCapacity(ctx context.Context, c CapCase, repeat int) CapRecord {
	rec := CapRecord{Case: c.ID}
	start := time.Now()
	defer func() { rec.WallS = time.Since(start).Seconds() }()
	dir := filepath.Join(s.Out, "capacity", c.ID)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		rec.Error = err.Error()
		return rec
	}
	st, err := s.Lab.Up(ctx, c.Deploy)
	if err != nil {
		rec.Error = err.Error()
		return rec
	}
	defer st.Down()
	if err := prepare(ctx, st.Base, c.Prepare); err != nil {
		rec.Error = err.Error()
		return rec
	}
	s.warmup(ctx, st, c.Scenarios, c.Start, 1.5, 0, 0) // starts are a tenth to a third of the capacities
	step, closeStep := s.stepper(st, c)
	defer closeStep()
	sw := s.sweep(ctx, step, c)
	rec.Sweep, rec.Unjudged, rec.LowerBound = sw.Steps, sw.Unjudged, sw.Capacity
	if sw.Unjudged == "" {
		rec.Truth = sw.Capacity
	}
	logf("%s: true capacity %.4g/s (%d steps)%s", c.ID, rec.Truth, len(sw.Steps), ifNotEmpty(", unjudged: ", sw.Unjudged))
	var held float64 // the highest rate a recheck held
	for rep := 1; rep <= repeat && ctx.Err() == nil; rep++ {
		if rec.Truth <= 0 { // nothing to score a search against: its minutes are better spent elsewhere
			rec.Searches = append(rec.Searches, SearchScore{Rep: rep, Unjudged: "not run: the sweep found no true capacity"})
			continue
		}
		sc := s.search(ctx, st, c, rep, dir, max(rec.Truth, held), step)
		if sc.Recheck != nil && sc.Recheck.Judged && sc.Recheck.Holds {
			held = max(held, sc.Outcome.Highest) // the warmed JVM held it since the sweep: a later search is scored against no less
		}
		rec.Searches = append(rec.Searches, sc)
	}
	return rec
}

// sweep runs the harness's own fixed-rate search.
func (s *Session) sweep(ctx context.Context, step func(context.Context, float64) SweepStep, c CapCase) SweepResult {
	return Sweep{Start: c.Start, Factor: 1.5, Precision: 0.05, MaxSteps: 30, Retries: 2, Confirm: true, Step: step}.Run(ctx)
}

// stepper returns how the harness runs and judges one fixed-rate step on
// the target, and what closes its client.
func (s *Session) stepper(st *Stack, c CapCase) (func(context.Context, float64) SweepStep, func()) {
	var routes []string
	for _, sc := range c.Scenarios {
		routes = append(routes, sc.Endpoint.Route)
	}
	counter := st.Counter(routes)
	client := NewClient(st.Base, 5*time.Second)
	seed := uint64(1)
	step := func(ctx context.Context, r float64) SweepStep {
		s.Lab.Meter.WaitQuiet(ctx, s.Busy, 2*time.Second, s.Wait) // the last step's queue drains meanwhile
		before, err := counter.Counts(ctx)
		t0 := time.Now()
		seed++
		cr := client.Step(ctx, c.Scenarios, r, s.stepHold(c), seed)
		st := SweepStep{Client: cr, Other: s.Lab.Meter.Window(t0, time.Now())}
		after, err2 := counter.Counts(ctx)
		if err != nil || err2 != nil {
			st.Why = fmt.Sprintf("the server's count could not be read: %v %v", err, err2)
			return st
		}
		st.Server = after.Minus(before)
		st.Holds, st.Why = judgeStep(cr, st.Server, c.SLO)
		st.Judged = stepJudged(st.Holds, st.Other, s.Busy)
		if !st.Judged {
			st.Why = fmt.Sprintf("%s, while other processes used %.2f cores", st.Why, st.Other.Mean)
		}
		logf("  sweep %s %.4g/s: p95 %s, server %d (%d failed), client %d sent: holds %v %s", c.ID, r,
			cr.P95.Round(time.Millisecond/10), st.Server.Total(), st.Server.Failed(), cr.Sent, st.Holds, st.Why)
		return st
	}
	return step, client.Close
}

// recheck runs the harness's own step at the rate loadlens found when it
// is above the sweep's capacity: the JVM has warmed since the sweep, and
// a rate the harness's client sees hold (judged as a sweep step, a failure
// confirmed) is a capacity the target has. It returns the capacity to
// score against.
func recheck(ctx context.Context, step func(context.Context, float64) SweepStep, sc *SearchScore, truth float64) float64 {
	got := sc.Outcome.Highest
	if got <= truth*1.05 {
		return truth
	}
	st := step(ctx, got)
	if st.Judged && !st.Holds {
		st = step(ctx, got)
	}
	sc.Recheck = &st
	if st.Judged && st.Holds {
		return got
	}
	return truth
}

// search runs `loadlens capacity` once and scores it and estimate.
func (s *Session) search(ctx context.Context, st *Stack, c CapCase, rep int, dir string, truth float64, step func(context.Context, float64) SweepStep) SearchScore {
	sc := SearchScore{Rep: rep}
	rdir := filepath.Join(dir, fmt.Sprint(rep))
	if err := os.MkdirAll(rdir, 0o755); err != nil {
		sc.Unjudged = err.Error()
		return sc
	}
	load := flat(c.Scenarios, c.Start*4, s.stepHold(c)) // capacity's default start is a quarter of the test's peak
	tf := TestFile{Name: "truth-" + c.ID, BaseURL: st.Base, Load: load, SLO: c.SLO, Targets: st.Targets, TracesListen: st.Traces}
	test := filepath.Join(rdir, "test.yaml")
	if err := os.WriteFile(test, []byte(tf.YAML()), 0o644); err != nil {
		sc.Unjudged = err.Error()
		return sc
	}
	s.Lab.Meter.WaitQuiet(ctx, s.Busy, 3*time.Second, s.Wait)
	t0 := time.Now()
	var inv Invocation
	err := s.Lab.WithReceiver(st.Traces != "", func() (err error) {
		inv, err = s.Lab.LL.Exec(ctx, rdir, "capacity", "capacity", test, "--hold", seconds(s.stepHold(c)),
			"--start", rate(c.Start), "--budget", seconds(searchBudget(s.stepHold(c))), "--results", "results")
		return err
	})
	sc.Other, sc.Exit = s.Lab.Meter.Window(t0, time.Now()), inv.Exit
	if err != nil {
		sc.Unjudged = err.Error()
		return sc
	}
	cdir, err := RunDir(rdir)
	if err == nil {
		sc.Outcome, err = readCapacity(cdir)
	}
	if err != nil {
		sc.Unjudged = fmt.Sprintf("no capacity.json (exit %d): %v", inv.Exit, err)
		return sc
	}
	sc.Judged = sc.Other.Mean < s.Busy && truth > 0
	switch {
	case truth <= 0:
		sc.Unjudged = "no true capacity to score against"
	case !sc.Judged:
		sc.Unjudged = fmt.Sprintf("other processes used %.2f cores on average during the search", sc.Other.Mean)
	}
	if truth > 0 {
		truth = recheck(ctx, step, &sc, truth)
		sc.Truth = truth
		sc.ErrorPct = 100 * (sc.Outcome.Highest - truth) / truth
		s.estimate(ctx, &sc, rdir, cdir, truth)
	}
	logf("%s search %d: loadlens %.4g/s vs true %.4g/s (%+.1f%%), estimate %d want %d", c.ID, rep, sc.Outcome.Highest, truth,
		sc.ErrorPct, sc.EstimateGot, sc.EstimateWant)
	return sc
}

// estimate runs `loadlens estimate --rps X --from-run <search dir>`.
func (s *Session) estimate(ctx context.Context, sc *SearchScore, rdir, cdir string, truth float64) {
	sc.EstimateRPS = math.Round(estimateFactor * truth)
	sc.EstimateWant = int(math.Ceil(sc.EstimateRPS / truth))
	inv, err := s.Lab.LL.Exec(ctx, rdir, "estimate", "estimate", "--rps", rate(sc.EstimateRPS), "--from-run", cdir)
	sc.EstimateExit, sc.EstimateOut = inv.Exit, lastLines(inv.Stdout+inv.Stderr, 12)
	if err == nil {
		sc.EstimateGot, _ = parseInstances(inv.Stdout)
	}
}

func ifNotEmpty(prefix, s string) string {
	if s == "" {
		return ""
	}
	return prefix + s
}

// stepJudged reports whether a sweep step counts: a step that held while
// other processes took CPU would hold without them, so it stands; one that
// failed then says nothing of the target.
func stepJudged(holds bool, other Busy, limit float64) bool { return holds || other.Mean < limit }
