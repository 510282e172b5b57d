package cli

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/loadlens/loadlens/internal/app"
	"github.com/loadlens/loadlens/internal/k8s"
	"github.com/loadlens/loadlens/internal/live"
	"github.com/loadlens/loadlens/internal/units"
)

const (
	k8sStatusUsage = "k8s status RUN [--namespace NS] [--kubeconfig F] [--context C]"
	k8sAttachUsage = "k8s attach RUN [--namespace NS] [--kubeconfig F] [--context C]"
	k8sFetchUsage  = "k8s fetch RUN [--results DIR] [--namespace NS] [--kubeconfig F] [--context C]"
	k8sDeleteUsage = "k8s delete RUN [--namespace NS] [--kubeconfig F] [--context C]"
)

// k8sDetach creates an in-cluster run and returns: the coordinator runs in
// its pod, and the commands to follow it are printed.
func k8sDetach(ctx context.Context, e *env, s *k8s.Spec, kubeconfig, kubeContext string) int {
	cl, objs, err := clusterObjects(s, kubeconfig, kubeContext)
	if err != nil {
		return fail(e, err)
	}
	if err := k8s.CreateInCluster(ctx, cl.Client, objs); err != nil {
		return fail(e, err)
	}
	ns, name := s.Namespace, s.Name
	fmt.Fprintf(e.stdout, "created run %s/%s: coordinator Job %s, agents Job %s (%s), Service %s; deleted %s after it ends (--ttl)\n",
		ns, name, k8s.CoordinatorName(name), name, units.CountOf(int64(s.Agents), "agent", "agents"), name, units.Duration(s.TTL))
	fmt.Fprintf(e.stdout, "  loadlens k8s status %[1]s --namespace %[2]s\n  loadlens k8s attach %[1]s --namespace %[2]s\n  loadlens k8s fetch %[1]s --namespace %[2]s\n", name, ns)
	fmt.Fprintf(e.stdout, "  dashboard: kubectl port-forward -n %s service/%s %d, then http://127.0.0.1:%d/?token=$(kubectl get secret -n %s %s -o jsonpath='{.data.%s}' | base64 -d)\n",
		ns, name, k8s.DashboardPort, k8s.DashboardPort, ns, name, k8s.DashboardKey)
	return app.ExitOK
}

// k8sRunFlags are the flags of the commands that name a run.
type k8sRunFlags struct {
	namespace, kubeconfig, kubeContext string
	wait                               time.Duration
}

func (k *k8sRunFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&k.namespace, "namespace", "", "namespace of the run (default: the kubeconfig context's)")
	fs.StringVar(&k.kubeconfig, "kubeconfig", "", "kubeconfig file (default: $KUBECONFIG, then ~/.kube/config)")
	fs.StringVar(&k.kubeContext, "context", "", "kubeconfig context (default: the current one)")
	fs.DurationVar(&k.wait, "wait", 5*time.Minute, "attach, fetch: how long to wait for the coordinator's pod to be ready")
}

// parse parses args for a command taking one run name and connects.
func (k *k8sRunFlags) parse(e *env, fs *flag.FlagSet, args []string, usage string) (run string, cl *k8s.Cluster, code int) {
	pos, err := parseArgs(fs, args)
	if err != nil {
		return "", nil, app.ExitBadInput
	}
	if len(pos) != 1 {
		return "", nil, fail(e, usageErr("give one run's name (k8s run --detach printed it): loadlens %s", usage))
	}
	cl, err = k8s.Connect(k.kubeconfig, k.kubeContext)
	if err != nil {
		return "", nil, fail(e, usageErr("%v", err))
	}
	if k.namespace == "" {
		k.namespace = cl.Namespace
	}
	return pos[0], cl, -1
}

// k8sStatusCmd prints an in-cluster run's state.
func k8sStatusCmd(ctx context.Context, e *env, args []string) int {
	fs := newFlagSet(e, "k8s status", k8sStatusUsage)
	var k k8sRunFlags
	k.register(fs)
	run, cl, code := k.parse(e, fs, args, k8sStatusUsage)
	if code >= 0 {
		return code
	}
	st, err := k8s.ReadRun(ctx, cl.Client, k.namespace, run)
	if err != nil {
		return fail(e, err)
	}
	st.Write(e.stdout, time.Now())
	if st.Gone(time.Now()) != "" {
		return app.ExitRunFailed
	}
	return app.ExitOK
}

// k8sDeleteCmd deletes a run's objects.
func k8sDeleteCmd(ctx context.Context, e *env, args []string) int {
	fs := newFlagSet(e, "k8s delete", k8sDeleteUsage)
	var k k8sRunFlags
	k.register(fs)
	run, cl, code := k.parse(e, fs, args, k8sDeleteUsage)
	if code >= 0 {
		return code
	}
	if err := k8s.DeleteRun(ctx, cl.Client, k.namespace, run); err != nil {
		return fail(e, err)
	}
	fmt.Fprintf(e.stdout, "deleted run %s/%s\n", k.namespace, run)
	return app.ExitOK
}

// k8sAttachCmd follows a run's status until its verdict.
func k8sAttachCmd(ctx context.Context, e *env, args []string) int {
	return k8sAttach(ctx, e, args, func(cl *k8s.Cluster, ns string) k8s.ReachPort { return k8s.PortForwardTo(cl, ns, e.stderr) })
}

// k8sFetchCmd copies a run's directory here.
func k8sFetchCmd(ctx context.Context, e *env, args []string) int {
	return k8sFetch(ctx, e, args, func(cl *k8s.Cluster, ns string) k8s.ReachPort { return k8s.PortForwardTo(cl, ns, e.stderr) })
}

// reachCoordinator reaches the control port of run's coordinator pod and reads the run's token.
// It waits for the pod up to wait.
func reachCoordinator(ctx context.Context, e *env, cl *k8s.Cluster, ns, run string, reach k8s.ReachPort, wait time.Duration) (addr, token string, err error) {
	token, err = k8s.RunToken(ctx, cl.Client, ns, run)
	if err != nil {
		return "", "", err
	}
	wctx, cancel := context.WithTimeoutCause(ctx, wait, fmt.Errorf("not ready within %v (--wait)", wait))
	pod, err := k8s.CoordinatorPod(wctx, cl.Client, ns, run, e.stderr)
	cancel()
	if err != nil {
		return "", "", err
	}
	addr, err = reach(ctx, pod, k8s.ControlPort)
	if err != nil {
		return "", "", fmt.Errorf("reaching the coordinator's pod %s: %w", pod, err)
	}
	return addr, token, nil
}

// k8sAttach is k8s attach with the way the coordinator is reached given.
func k8sAttach(ctx context.Context, e *env, args []string, reach func(*k8s.Cluster, string) k8s.ReachPort) int {
	fs := newFlagSet(e, "k8s attach", k8sAttachUsage)
	var k k8sRunFlags
	k.register(fs)
	run, cl, code := k.parse(e, fs, args, k8sAttachUsage)
	if code >= 0 {
		return code
	}
	fwd, stop := context.WithCancel(ctx)
	defer stop() // ends the port-forward
	addr, token, err := reachCoordinator(fwd, e, cl, k.namespace, run, reach(cl, k.namespace), k.wait)
	if err != nil {
		return fail(e, err)
	}
	line := &statusLine{w: e.stdout, tty: e.tty}
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		st, err := k8s.GetStatus(ctx, addr, token)
		if err != nil {
			line.done()
			if ctx.Err() != nil {
				return fail(e, context.Cause(ctx))
			}
			fmt.Fprintf(e.stderr, "lost the coordinator: %v\n", err)
			if rs, rerr := k8s.ReadRun(context.WithoutCancel(ctx), cl.Client, k.namespace, run); rerr == nil {
				rs.Write(e.stderr, time.Now())
			}
			return app.ExitRunFailed
		}
		line.show(st)
		if st.Phase == k8s.PhaseFinished || st.Phase == k8s.PhaseFailed {
			line.done()
			fmt.Fprintf(e.stdout, "%s: %s (exit code %d)%s\n", run, orPhase(st), st.ExitCode, fetchHint(st, run))
			return st.ExitCode
		}
		select {
		case <-ctx.Done():
			line.done()
			fmt.Fprintf(e.stderr, "detached; the run goes on (loadlens k8s attach %s)\n", run)
			return app.ExitOK
		case <-tick.C:
		}
	}
}

func orPhase(st k8s.Status) string {
	if st.Verdict != "" {
		return st.Verdict
	}
	if st.Message != "" {
		return st.Phase + ": " + st.Message
	}
	return st.Phase
}

func fetchHint(st k8s.Status, run string) string {
	if st.RunDir == "" {
		return ""
	}
	return "; loadlens k8s fetch " + run + " copies " + st.RunDir + " here"
}

// k8sFetch is k8s fetch with the way the coordinator is reached given.
func k8sFetch(ctx context.Context, e *env, args []string, reach func(*k8s.Cluster, string) k8s.ReachPort) int {
	fs := newFlagSet(e, "k8s fetch", k8sFetchUsage)
	var k k8sRunFlags
	k.register(fs)
	results := fs.String("results", app.DefaultResults, "parent directory of run directories")
	stay := fs.Bool("stay", false, "leave the coordinator serving its results (default: it exits once they are fetched)")
	maxSize := fs.Int64("max-bytes", 8<<30, "refuse results larger than this many bytes")
	run, cl, code := k.parse(e, fs, args, k8sFetchUsage)
	if code >= 0 {
		return code
	}
	fwd, stop := context.WithCancel(ctx)
	defer stop()
	addr, token, err := reachCoordinator(fwd, e, cl, k.namespace, run, reach(cl, k.namespace), k.wait)
	if err != nil {
		return fail(e, err)
	}
	st, err := k8s.GetStatus(ctx, addr, token)
	if err != nil {
		return fail(e, err)
	}
	if st.Phase != k8s.PhaseFinished || st.RunDir == "" {
		return fail(e, fmt.Errorf("run %s is %s: its directory is fetched once it has finished (loadlens k8s attach %s waits for it)", run, st.Phase, run))
	}
	if _, err := os.Stat(filepath.Join(*results, st.RunDir)); err == nil {
		return fail(e, fmt.Errorf("%s is already here; remove it to fetch it again", filepath.Join(*results, st.RunDir)))
	}
	files, size, err := k8s.Fetch(ctx, addr, token, *results, *maxSize)
	if err != nil {
		return fail(e, err)
	}
	fmt.Fprintf(e.stdout, "fetched %s (%s) into %s\n", units.CountOf(int64(files), "file", "files"), units.Bytes(size), filepath.Join(*results, st.RunDir))
	if !*stay {
		if err := k8s.Release(ctx, addr, token); err != nil {
			fmt.Fprintf(e.stderr, "the coordinator did not hear it may exit (%v); it exits after its --keep\n", err)
		}
	}
	return app.ExitOK
}

// statusLine shows an attached run's figures: rewritten in place on a
// terminal, a line every 5 s elsewhere.
type statusLine struct {
	w     interface{ Write([]byte) (int, error) }
	tty   bool
	drawn bool
	last  time.Time
	kind  string
}

func (l *statusLine) show(st k8s.Status) {
	text := attachText(st)
	if l.tty {
		fmt.Fprintf(l.w, "\r\033[K%s", text)
		l.drawn = true
		return
	}
	kind := fmt.Sprint(st.Phase, st.Elapsed > 0) // a new phase, or its first figures: said at once
	if kind != l.kind || time.Since(l.last) >= 5*time.Second {
		fmt.Fprintln(l.w, text)
		l.last, l.kind = time.Now(), kind
	}
}

// attachText is the coordinator's own terminal line (a local run's, from
// the figures it publishes) and the agents; before its first second, the
// phase and the agents ready.
func attachText(st k8s.Status) string {
	agents := fmt.Sprintf("agents %d/%d", st.Ready, st.Agents)
	if st.Lost > 0 {
		agents += fmt.Sprintf(", %d lost", st.Lost)
	}
	if st.Elapsed <= 0 || st.Phase == k8s.PhaseStarting {
		return fmt.Sprintf("%s  %s ready", st.Phase, agents)
	}
	return live.Format(live.Status{Elapsed: st.Elapsed, Total: st.Length, RPS: st.Rate, P95: st.P95, ErrRate: st.ErrorRate,
		InFlight: st.InFlight, VUs: st.VUs, VUsMax: st.VUsMax, Dropped: st.Dropped, Unit: st.Unit}) + " · " + agents
}

func (l *statusLine) done() {
	if l.tty && l.drawn {
		fmt.Fprint(l.w, "\r\033[K")
		l.drawn = false
	}
}

// clusterObjects connects to the cluster kubeconfig and kubeContext name
// and builds s's objects, in the context's namespace when s names none.
func clusterObjects(s *k8s.Spec, kubeconfig, kubeContext string) (*k8s.Cluster, *k8s.Objects, error) {
	cl, err := k8s.Connect(kubeconfig, kubeContext)
	if err != nil {
		return nil, nil, usageErr("%v", err)
	}
	if s.Namespace == "" {
		s.Namespace = cl.Namespace
	}
	objs, err := k8s.Build(s)
	if err != nil {
		return nil, nil, usageErr("%v", err)
	}
	return cl, objs, nil
}
