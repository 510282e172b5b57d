package cli

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/loadlens/loadlens/internal/app"
	"github.com/loadlens/loadlens/internal/dist"
	"github.com/loadlens/loadlens/internal/k8s"
	"github.com/loadlens/loadlens/internal/live"
)

const k8sCoordinatorUsage = "k8s coordinator <test.yaml> --run NAME --agents N [flags]"

// coordinatorFlags are what the coordinator's pod is started with.
type coordinatorFlags struct {
	run, results, control string
	agents                int
	keep, startup         time.Duration
	adopt                 bool
	out                   outputFlags
}

// k8sCoordinatorCmd is the coordinator in its pod: it waits for the
// agents' pods, runs the test over them, keeps the status ConfigMap up to
// date, serves the results until fetched or --keep ends, and exits with
// the verdict (0 pass, 99 thresholds failed), for a workflow step to gate on.
func k8sCoordinatorCmd(ctx context.Context, e *env, args []string) int {
	fs := newFlagSet(e, "k8s coordinator", k8sCoordinatorUsage)
	var f coordinatorFlags
	fs.StringVar(&f.run, "run", "", "the run's name (its agents' Job)")
	fs.IntVar(&f.agents, "agents", 0, "how many agents the Job has")
	fs.StringVar(&f.results, "results", k8s.ResultsDir, "parent directory of the run directory (the pod's volume)")
	fs.StringVar(&f.control, "control-addr", fmt.Sprintf("0.0.0.0:%d", k8s.ControlPort), "serve the status and results here")
	fs.DurationVar(&f.keep, "keep", 0, "how long to serve the results after the run, unless fetched")
	fs.DurationVar(&f.startup, "startup-timeout", 5*time.Minute, "how long the agents' pods may take to become ready")
	fs.BoolVar(&f.adopt, "adopt", false, "make this Job the owner of the run's other objects (an applied manifest's)")
	f.out.register(fs)
	pos, err := parseArgs(fs, args)
	if err != nil {
		return app.ExitBadInput
	}
	if len(pos) != 1 || f.run == "" || f.agents < 1 {
		return fail(e, usageErr("loadlens %s", k8sCoordinatorUsage))
	}
	token, err := dist.ReadToken(os.Getenv(k8s.TokenFileEnv))
	if err != nil {
		return fail(e, usageErr("$%s: %v", k8s.TokenFileEnv, err))
	}
	if err := f.secretOutputs(); err != nil {
		return fail(e, err)
	}
	rc, err := f.out.runConfig(app.RunConfig{ResultsDir: f.results, Out: e.stdout, Args: storedArgs(fs, e.args), Version: app.Version})
	if err != nil {
		return fail(e, err)
	}
	cl, err := k8s.InCluster(os.Getenv(k8s.KubeDirEnv))
	if err != nil {
		return fail(e, err)
	}
	ns := cl.Namespace
	if v := os.Getenv(k8s.NamespaceEnv); v != "" {
		ns = v
	}
	if f.adopt {
		if err := k8s.Adopt(ctx, cl.Client, ns, f.run); err != nil {
			fmt.Fprintf(e.stderr, "%v; the run goes on, its objects are deleted by label (docs/kubernetes.md)\n", err)
		}
	}
	rep := k8s.NewReporter(cl.Client, ns, f.run, k8s.Status{Phase: k8s.PhaseStarting, Agents: f.agents}, e.stderr)
	ctl := k8s.NewControl(token, rep.Status, f.results)
	stopServing, err := serve(f.control, ctl.Handler())
	if err != nil {
		return fail(e, fmt.Errorf("--control-addr: %w", err))
	}
	defer stopServing()
	repCtx, stopRep := context.WithCancel(context.WithoutCancel(ctx))
	repDone := make(chan struct{})
	go func() { rep.Run(repCtx); close(repDone) }()
	defer func() { stopRep(); <-repDone }() // the last status is written before the pod exits
	code := coordinateInPod(ctx, e, &f, pos[0], token, rc, cl, ns, rep)
	if st := rep.Status(); st.Phase == k8s.PhaseFinished && f.keep > 0 {
		fmt.Fprintf(e.stdout, "serving %s for loadlens k8s fetch %s, for %s at most\n", st.RunDir, f.run, f.keep)
		select {
		case <-ctl.Released():
		case <-time.After(f.keep):
		case <-ctx.Done():
		}
	}
	return code
}

// secretOutputs adds the outputs the run's Secret mounts in the pod to
// --out's: their URLs may carry credentials, which no Job's arguments show.
func (f *coordinatorFlags) secretOutputs() error {
	path := os.Getenv(k8s.OutputsEnv)
	if path == "" {
		return nil
	}
	outs, err := k8s.ReadOutputs(path)
	if err != nil {
		return usageErr("%v", err)
	}
	f.out.outs = append(f.out.outs, outs...)
	return nil
}

// coordinateInPod waits for the agents and runs the test over them,
// keeping rep up to date; it returns the exit code.
func coordinateInPod(ctx context.Context, e *env, f *coordinatorFlags, test, token string, rc app.RunConfig,
	cl *k8s.Cluster, ns string, rep *k8s.Reporter) int {
	failed := func(err error) int {
		rep.Set(func(s *k8s.Status) { s.Phase, s.Message, s.ExitCode = k8s.PhaseFailed, err.Error(), app.ExitRunFailed })
		return fail(e, err)
	}
	wait, cancel := context.WithTimeoutCause(ctx, f.startup, fmt.Errorf("the agents' pods were not ready within %v (--startup-timeout)", f.startup))
	agents, err := k8s.WaitAgents(wait, cl.Client, ns, f.run, f.agents, e.stderr,
		func(n int) { rep.Set(func(s *k8s.Status) { s.Ready = n }) })
	cancel()
	if err != nil {
		return failed(err)
	}
	addrs := make([]string, len(agents))
	for i, a := range agents {
		if a.IP == "" {
			return failed(fmt.Errorf("agent %d (pod %s) is ready but has no IP", a.Index, a.Pod))
		}
		addrs[i] = net.JoinHostPort(a.IP, strconv.Itoa(k8s.AgentPort))
	}
	rep.Set(func(s *k8s.Status) { s.Phase, s.Ready = k8s.PhaseRunning, len(agents) })
	rc.Live = func(l live.Status) { rep.Set(func(s *k8s.Status) { s.Live = liveOf(l) }) }
	res, err := dist.Coordinate(ctx, dist.Config{TestFile: test, Agents: addrs, Token: token,
		Progress: func(p dist.Progress) {
			rep.Set(func(s *k8s.Status) {
				s.Second, s.Requests, s.Failures, s.Lost, s.Ready = p.Second+1, p.Requests, p.Failures, p.Lost, p.Agents-p.Lost
			})
		},
		Run: rc})
	code := app.ExitAfter(res.ExitCode, err)
	if err != nil && res.Dir == "" {
		return failed(err)
	}
	if err != nil {
		fail(e, err)
	}
	rep.Set(func(s *k8s.Status) {
		s.Phase, s.ExitCode, s.RunDir, s.Verdict = k8s.PhaseFinished, code, filepath.Base(res.Dir), verdict(res, code)
		if err != nil {
			s.Message = err.Error()
		}
	})
	return code
}

// liveOf is the live line's figures as the status publishes them.
func liveOf(l live.Status) k8s.Live {
	return k8s.Live{Elapsed: l.Elapsed, Length: l.Total, Rate: l.RPS, P95: l.P95, ErrorRate: l.ErrRate,
		InFlight: l.InFlight, VUs: l.VUs, VUsMax: l.VUsMax, Dropped: l.Dropped, Unit: l.Unit}
}

// verdict words how the run ended, as its exit code does.
func verdict(res app.RunResult, code int) string {
	switch {
	case code == app.ExitOK:
		return "pass"
	case code == app.ExitThresholdFailed:
		return "thresholds failed"
	case res.Status != "":
		return "run " + res.Status
	}
	return "run failed"
}

// serve serves h on addr until the returned function is called.
func serve(addr string, h http.Handler) (stop func(), err error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	return func() { _ = srv.Close() }, nil
}
