package main

import (
	"cmp"
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// RunRecord is one run of a findings case: what loadlens said and whether
// the host let it be judged. It is kept whole in the raw results, so a miss
// can be studied.
type RunRecord struct {
	Case        string        `json:"case"`
	Rep         int           `json:"rep"`
	Start       time.Time     `json:"start"`
	WallS       float64       `json:"wall_s"`
	Peak        float64       `json:"peak_rate"`            // iterations per second at the load's peak
	LoadBasis   string        `json:"load_basis,omitempty"` // the capacity the rates are a share of, and where it came from
	Judged      bool          `json:"judged"`
	Unjudged    string        `json:"unjudged,omitempty"` // why not
	OtherBefore Busy          `json:"other_cores_before"`
	OtherDuring Busy          `json:"other_cores_during"`
	Findings    []Finding     `json:"findings"`
	Fired       []string      `json:"fired"` // rule ids of the warning and critical findings
	Exit        int           `json:"exit"`
	Dir         string        `json:"dir"`
	Error       string        `json:"error,omitempty"` // the run could not be made
	Probe       *ClientResult `json:"probe,omitempty"` // a healthy case's second client during the run
	// TargetCoreBusy is a healthy case's target core's busy share over the
	// hold (/proc/stat; 0: not measured)
	TargetCoreBusy float64  `json:"target_core_busy,omitempty"`
	Premise        *Premise `json:"premise,omitempty"`
	// NoPremise says why the case's fault (or, for a healthy case, its
	// health) did not happen in this run: not judged, and counted apart from
	// a busy host's runs.
	NoPremise string `json:"premise_not_met,omitempty"`
	// MayAlso are rules the harness's own measure made fair in this run
	// beside the case's must and may: a CPU finding where a healthy case's
	// target core was full (coreBusyMay).
	MayAlso []string `json:"may_also,omitempty"`
}

// Session is what every run of a harness session shares.
type Session struct {
	Lab        *Lab
	Out        string        // raw results
	Busy       float64       // cores other processes may use before a run is unjudged
	Wait       time.Duration // the longest wait for a quiet host before a run
	Quick      bool
	Capacity   map[string]float64 // true capacities from the sweeps, by capacity case
	LowerBound map[string]float64 // the highest rate a sweep saw hold, when it could not finish
}

// warmup loads a fresh target before it is measured, on its endpoints,
// in steps of each (0: 10 s) ×1.5 from an eighth of r × up to r × up, as
// the sweeps climb, then holds r × up for hold (0: not at all).
// A JVM's first thousands of requests are its compiler's: a fresh one sent
// 573/s after three 10 s steps stopped answering for good (70 % of what a
// sweep's gentler climb held on another fresh one).
func (s *Session) warmup(ctx context.Context, st *Stack, scs []Scenario, r, up float64, each, hold time.Duration) {
	d := cmp.Or(each, 10*time.Second)
	if s.Quick {
		d = 5 * time.Second
	}
	c := NewClient(st.Base, 5*time.Second)
	defer c.Close()
	top, step := max(1, r*up), 1.5
	if s.Quick {
		step = 2 // the test command's subset: 4 steps of 5 s (its rates are low, its JVM case a pool's)
	}
	var last ClientResult
	for rate := top / 8; ctx.Err() == nil; rate *= step { // at most 7 steps
		last = c.Step(ctx, scs, max(1, min(rate, top)), d, 1)
		if rate >= top {
			break
		}
	}
	if hold > 0 && ctx.Err() == nil {
		last = c.Step(ctx, scs, top, hold, 2)
	}
	// what the target was like when measuring began: a collapse here is the case's, not loadlens's
	logf("  warm-up's last step %.4g/s: p95 %s, %d of %d failed", last.Rate, last.P95.Round(time.Millisecond/10), last.Failed, last.Sent)
}

// probeRate is the healthy cases' second client's rate: a few requests a
// second, nothing the target notices.
const probeRate = 2

// probe measures a healthy case's premise while loadlens runs: the
// harness's own client, at probeRate on the same endpoints, for the load's
// length. The returned func waits for it and says why the target was not
// healthy, or "".
func (s *Session) probe(ctx context.Context, st *Stack, load Load) func() (*ClientResult, string) {
	done := make(chan ClientResult, 1)
	go func() {
		c := NewClient(st.Base, load.Timeout)
		defer c.Close()
		done <- c.Step(ctx, load.Scenarios, probeRate, load.Duration(), 7)
	}()
	return func() (*ClientResult, string) {
		r := <-done
		if r.Sent == 0 {
			return &r, "the probe sent nothing"
		}
		if share := float64(r.Failed) / float64(r.Sent); share > defaultSLO.Errors || r.P95 > defaultSLO.P95 {
			return &r, fmt.Sprintf("the target was not healthy in this run by the harness's own probe: p95 %s, %d of %d failed",
				r.P95.Round(time.Millisecond), r.Failed, r.Sent)
		}
		return &r, ""
	}
}

// prepare sends a case's set-up request.
func prepare(ctx context.Context, base, path string) error {
	if path == "" {
		return nil
	}
	req, err := http.NewRequestWithContext(ctx, "POST", base+path, nil)
	if err != nil {
		return err
	}
	r, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	r.Body.Close()
	if r.StatusCode >= 300 {
		return fmt.Errorf("POST %s: %s", path, r.Status)
	}
	return nil
}

// caseLoad is the case's load for this session (shortened in quick mode),
// and what its rates are a share of.
func (s *Session) caseLoad(c Case) (Load, string) {
	capacity, basis := s.capacityFor(c.Needs)
	l := c.Load(capacity)
	if s.Quick {
		l = l.Shortened(10*time.Second, 10*time.Second)
	}
	return l, basis
}

// capacityFor is a capacity case's true capacity from this session's sweep;
// when the sweep could not finish (a busy host), the highest rate it saw
// hold (a lower bound: a healthy share of it stays healthy); else the
// case's nominal capacity.
func (s *Session) capacityFor(id string) (float64, string) {
	if id == "" {
		return 0, ""
	}
	if c := s.Capacity[id]; c > 0 {
		return c, fmt.Sprintf("%.4g/s, %s's sweep", c, id)
	}
	if c := s.LowerBound[id]; c > 0 {
		return c, fmt.Sprintf("%.4g/s, the highest rate %s's unfinished sweep saw hold", c, id)
	}
	for _, k := range capacities() {
		if k.ID == id {
			return k.Nominal, fmt.Sprintf("%.4g/s, %s's nominal capacity (its sweep could not say)", k.Nominal, id)
		}
	}
	return 0, ""
}

// RunCase runs one repetition of a findings case.
func (s *Session) RunCase(ctx context.Context, c Case, rep int) RunRecord {
	rec := RunRecord{Case: c.ID, Rep: rep, Start: time.Now(), Dir: filepath.Join(s.Out, "cases", c.ID, fmt.Sprint(rep))}
	defer func() { rec.WallS = time.Since(rec.Start).Seconds() }()
	if err := s.runCase(ctx, c, &rec); err != nil {
		rec.Error, rec.Judged = err.Error(), false
		if rec.Unjudged == "" {
			rec.Unjudged = "the run could not be made"
		}
	}
	return rec
}

func (s *Session) runCase(ctx context.Context, c Case, rec *RunRecord) error {
	if err := os.MkdirAll(rec.Dir, 0o755); err != nil {
		return err
	}
	load, basis := s.caseLoad(c)
	rec.Peak, rec.LoadBasis = load.Peak, basis
	st, err := s.Lab.Up(ctx, c.Deploy)
	if err != nil {
		return err
	}
	defer st.Down()
	if err := prepare(ctx, st.Base, c.Prepare); err != nil {
		return err
	}
	warm := load.Start
	if c.Warm > 0 {
		warm = c.Warm
	}
	s.warmup(ctx, st, load.Scenarios, warm, 1, c.WarmStep, c.WarmHold)

	if err := prepare(ctx, st.Base, c.Prepare); err != nil { // the warm-up issued coupons too
		return err
	}
	stopHogs, err := s.hogs(c)
	defer stopHogs()
	if err != nil {
		return err
	}
	rec.OtherBefore = s.Lab.Meter.WaitQuiet(ctx, s.Busy, 3*time.Second, s.Wait)
	tf := TestFile{Name: "truth-" + c.ID, BaseURL: st.Base, Load: load, SLO: defaultSLO, Targets: st.Targets, TracesListen: st.Traces}
	test := filepath.Join(rec.Dir, "test.yaml")
	if err := os.WriteFile(test, []byte(tf.YAML()), 0o644); err != nil {
		return err
	}
	t0 := time.Now()
	var inv Invocation
	var fs []Finding
	premise := func() (*ClientResult, string) { return nil, "" }
	var core *coreWindow
	err = s.Lab.WithReceiver(st.Traces != "", func() (err error) {
		if len(c.Must) == 0 {
			premise = s.probe(ctx, st, load)
			if s.Lab.Layout.Target >= 0 {
				core = watchCore(s.Lab.Layout.Target, load.Ramp+time.Second, load.Duration())
			}
		}
		inv, fs, err = s.Lab.LL.RunTest(ctx, rec.Dir, test)
		return err
	})
	probe, unhealthy := premise()
	rec.Probe = probe
	if core != nil {
		if share, ok := core.busy(); ok {
			rec.TargetCoreBusy = share
			rec.MayAlso = coreBusyMay(share)
		}
	}
	if c.GCShare > 0 {
		// the hold, from a second after the ramp (loadlens starts its load a moment after its process)
		p := gcShare(st.Main.GCLog, t0.Add(load.Ramp+time.Second), t0.Add(load.Duration()+time.Second), c.GCShare)
		rec.Premise, unhealthy = &p, p.Why
	}
	rec.OtherDuring = s.Lab.Meter.Window(t0, time.Now())
	rec.Exit = inv.Exit
	if err != nil {
		return err
	}
	rec.Findings, rec.Fired = fs, firedRules(fs)
	judge(rec, s.Busy, unhealthy)
	return nil
}

// judge decides whether a run is judged: a busy host first (nothing it
// measured is the target's alone), then the case's premise (its fault, or
// a healthy case's health, measured by the harness): a run without it says
// nothing of the rules, right or wrong.
func judge(rec *RunRecord, busy float64, noPremise string) {
	switch {
	case rec.OtherDuring.Mean >= busy:
		rec.Unjudged = fmt.Sprintf("other processes used %.2f cores on average during the run (limit %.2f)", rec.OtherDuring.Mean, busy)
	case noPremise != "":
		rec.NoPremise, rec.Unjudged = noPremise, "premise not met: "+noPremise
	default:
		rec.Judged = true
	}
}

// hogs starts the case's CPU hogs; the returned func stops them.
func (s *Session) hogs(c Case) (func(), error) {
	if c.Hogs == 0 {
		return func() {}, nil
	}
	core := s.Lab.Layout.Target
	if c.HogsOn == "gen" {
		core = s.Lab.Layout.Gen
	}
	ps, err := s.Lab.Hogs(c.Hogs, core)
	return func() {
		for _, p := range ps {
			s.Lab.Procs.Stop(p, time.Second)
		}
	}, err
}

// firedRules returns the rule ids of the findings that fire, once each.
func firedRules(fs []Finding) []string {
	seen := map[string]bool{}
	var out []string
	for _, f := range fs {
		if !f.Fires() {
			continue
		}
		id := ruleID(f)
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

// subjects maps the name a CPU finding's title starts with to the
// catalogue's subject: the role loadlens names, or the deployment.
var subjects = map[string]string{"App": "App", "truthapp": "App", "shop": "App", "nginx": "App", "DB": "DB", "postgres": "DB", "host": "host"}

// ruleID is a finding's rule id: its kind, with the subject for the CPU
// rules ("cpu-saturation:DB").
func ruleID(f Finding) string {
	if f.Kind != "cpu-saturation" && f.Kind != "cpu-throttled" {
		return f.Kind
	}
	i := strings.Index(f.Title, " CPU ")
	if i < 0 {
		return f.Kind
	}
	who := f.Title[:i]
	if s, ok := subjects[who]; ok {
		return f.Kind + ":" + s
	}
	return f.Kind + ":" + who
}
