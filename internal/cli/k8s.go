package cli

import (
	"context"
	"flag"
	"fmt"
	"net"
	"net/url"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/loadlens/loadlens/internal/app"
	"github.com/loadlens/loadlens/internal/dist"
	"github.com/loadlens/loadlens/internal/k8s"
	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/units"
)

const (
	k8sUsage         = "k8s run|manifest|status|attach|fetch|delete ..."
	k8sRunUsage      = "k8s run <test.yaml> --agents N [--namespace NS] [--detach] [flags]"
	k8sManifestUsage = "k8s manifest <test.yaml> --agents N [--namespace NS] [--agents-only] [flags]"
)

// k8sCommands are k8s's subcommands, listed in the help under it.
func k8sCommands() []command {
	return []command{
		{"k8s run", k8sRunUsage, "run a test over N agent pods (an Indexed Job), coordinated from here, then delete them", k8sRunCmd},
		{"k8s manifest", k8sManifestUsage, "print the objects of a whole run (coordinator and agents), for kubectl apply or GitOps", k8sManifestCmd},
		{"k8s status", k8sStatusUsage, "say how an in-cluster run goes: phase, agents, requests, verdict", k8sStatusCmd},
		{"k8s attach", k8sAttachUsage, "follow an in-cluster run's live line until its verdict, and exit with it", k8sAttachCmd},
		{"k8s fetch", k8sFetchUsage, "copy an in-cluster run's directory into ./results", k8sFetchCmd},
		{"k8s delete", k8sDeleteUsage, "delete every object of a run now, as its TTL would", k8sDeleteCmd},
		{"k8s coordinator", k8sCoordinatorUsage, "(in the coordinator's pod) wait for the agents, run the test, publish the status", k8sCoordinatorCmd},
	}
}

// k8sCmd dispatches to k8s's subcommands.
func k8sCmd(ctx context.Context, e *env, args []string) int {
	if len(args) > 0 {
		for _, c := range k8sCommands() {
			if c.name == "k8s "+args[0] {
				return c.run(ctx, e, args[1:])
			}
		}
	}
	fs := newFlagSet(e, "k8s", k8sUsage)
	pos, err := parseArgs(fs, args)
	if err != nil {
		return app.ExitBadInput
	}
	if len(pos) == 0 {
		return fail(e, usageErr("k8s needs a subcommand: loadlens %s (see docs/kubernetes.md)", k8sUsage))
	}
	return fail(e, usageErr("unknown k8s subcommand %q: run, manifest, status, attach, fetch or delete", pos[0]))
}

// k8sFlags are the flags both k8s subcommands take.
type k8sFlags struct {
	agents           int
	namespace, image string
	cpu, memory      string
	tokenFile        string
	startup, ttl     time.Duration
	envs             listFlag
	keep             time.Duration // in the cluster: how long a finished coordinator serves its results
	pvc              string
	place            placementFlags
}

func (k *k8sFlags) register(fs *flag.FlagSet) {
	fs.IntVar(&k.agents, "agents", 0, "number of agent pods (the Job's completions and parallelism)")
	fs.StringVar(&k.namespace, "namespace", "", "namespace of the objects (default: the kubeconfig context's; none in a manifest)")
	fs.StringVar(&k.image, "image", "", "the loadlens image the pods run (default: the test's kubernetes.image, else "+defaultImage()+")")
	fs.StringVar(&k.cpu, "cpu", "", "CPU of each pod, request = limit (default: the test's kubernetes.cpu, else 1)")
	fs.StringVar(&k.memory, "memory", "", "memory of each pod, request = limit (default: the test's kubernetes.memory, else 1Gi)")
	fs.StringVar(&k.tokenFile, "token-file", "", "the agents' token from this file (default: a random token for this run)")
	fs.DurationVar(&k.startup, "startup-timeout", 5*time.Minute, "how long the agents' pods may take to start (image pull, scheduling)")
	fs.DurationVar(&k.ttl, "ttl", 10*time.Minute, "how long a finished Job stays when loadlens could not delete it (ttlSecondsAfterFinished)")
	fs.Var(&k.envs, "e", "KEY=VALUE environment variable for {{ env.KEY }} templates (repeatable)")
	fs.StringVar(&k.pvc, "pvc", "", "in the cluster: keep the run directory on this PersistentVolumeClaim (default: an emptyDir)")
	k.place.register(fs)
}

// defaultImage is the image of this loadlens version; a tag has no "+",
// which a build's version may ("+dirty").
func defaultImage() string {
	return "ghcr.io/loadlens/loadlens:" + strings.ReplaceAll(app.Version, "+", "-")
}

// spec reads the test and returns the run's objects; inCluster adds the
// coordinator's, with the environment values the test looked up.
func (k *k8sFlags) spec(file string, inCluster bool) (*k8s.Spec, *plan.Plan, func(string) (string, bool), error) {
	if k.agents < 1 {
		return nil, nil, nil, usageErr("--agents: give the number of agent pods, e.g. --agents 4")
	}
	lookup, err := envLookup(k.envs)
	if err != nil {
		return nil, nil, nil, err
	}
	used := map[string]string{}
	p, err := checked(plan.ParseFile(file, func(key string) (string, bool) {
		v, ok := lookup(key)
		if ok {
			used[key] = v // the coordinator's pod gets these, through the run's Secret
		}
		return v, ok
	}))
	if err != nil {
		return nil, nil, nil, err
	}
	files, err := dist.Files(p)
	if err != nil {
		return nil, nil, nil, usageErr("%v", err)
	}
	test, data := k8s.TestFiles(p, files)
	place, err := k.placement(p)
	if err != nil {
		return nil, nil, nil, err
	}
	token := k8s.NewToken()
	if k.tokenFile != "" {
		if token, err = dist.ReadToken(k.tokenFile); err != nil {
			return nil, nil, nil, usageErr("--token-file: %v", err)
		}
	}
	s := &k8s.Spec{Name: k8s.NewName(p.Name), Namespace: k.namespace, Image: place.Image, Agents: k.agents,
		CPU: place.CPU, Memory: place.Memory, Token: token, Test: test, Data: data, Placement: place,
		// the pods' whole life: starting, the test, and a margin for connecting and the last seconds
		Deadline: k.startup + k8s.Length(p) + 2*time.Minute, TTL: k.ttl,
		InCluster: inCluster, Dashboard: k8s.NewToken(), Env: used, Keep: k.keep, PVC: k.pvc, Startup: k.startup}
	if err := s.Check(); err != nil {
		return nil, nil, nil, usageErr("%v", err)
	}
	return s, p, lookup, nil
}

// k8sManifestCmd prints the objects of a run.
func k8sManifestCmd(_ context.Context, e *env, args []string) int {
	fs := newFlagSet(e, "k8s manifest", k8sManifestUsage)
	var k k8sFlags
	k.register(fs)
	agentsOnly := fs.Bool("agents-only", false, "print the agents only (Secret, ConfigMap, Job), for a coordinator run elsewhere")
	fs.DurationVar(&k.keep, "keep", 0, "how long the finished coordinator serves its results for k8s fetch before it exits with the verdict")
	var out outputFlags
	fs.Var(&out.outs, "out", "the coordinator sends every second to a metrics store, KIND=URL with KIND one of "+strings.Join(plan.OutputKinds(), ", ")+
		" (repeatable; see docs/outputs.md)")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return app.ExitBadInput
	}
	if len(pos) != 1 {
		return fail(e, usageErr("k8s manifest takes one test file: loadlens %s", k8sManifestUsage))
	}
	if _, err := out.metricsOutputs(); err != nil {
		return fail(e, err)
	}
	s, p, _, err := k.spec(pos[0], !*agentsOnly)
	if err != nil {
		return fail(e, err)
	}
	warnLoopback(e, p)
	if s.InCluster {
		s.Adopt, s.Outs = true, out.outs // no UID to own them yet: the coordinator adopts them when it starts
		outs, _ := out.metricsOutputs()  // checked above
		outputToken(e, s, p, outs)
	}
	objs, err := k8s.Build(s)
	if err != nil {
		return fail(e, usageErr("%v", err))
	}
	ns := ""
	if s.Namespace != "" {
		ns = " -n " + s.Namespace
	}
	kinds := "job,secret,configmap"
	if s.InCluster {
		kinds = "job,secret,configmap,service,serviceaccount,role,rolebinding"
		fmt.Fprintf(e.stdout, "# loadlens %s: the whole run of %s, its coordinator and %s (docs/kubernetes.md).\n"+
			"# Status: kubectl get configmap%s %s -o yaml; verdict: the exit code of Job %s (0 pass, 99 thresholds failed).\n",
			app.Version, pos[0], units.CountOf(int64(s.Agents), "agent", "agents"), ns, k8s.StatusName(s.Name), k8s.CoordinatorName(s.Name))
	} else {
		fmt.Fprintf(e.stdout, "# loadlens %s: %s for %s (docs/kubernetes.md).\n", app.Version, units.CountOf(int64(s.Agents), "agent", "agents"), pos[0])
	}
	if len(s.Outs) > 0 || len(s.Env) > 0 {
		fmt.Fprintf(e.stdout, "# The Secret holds the --out URLs and the -e values, credentials perhaps: keep this file as a secret.\n")
	}
	fmt.Fprintf(e.stdout, "# The run's token: kubectl get secret%s %s -o jsonpath='{.data.token}' | base64 -d\n"+
		"# Delete everything: kubectl delete%s %s -l %s=%s\n", ns, s.Name, ns, kinds, k8s.RunLabel, s.Name)
	if err := k8s.WriteManifest(e.stdout, objs); err != nil {
		return fail(e, err)
	}
	return app.ExitOK
}

// k8sRunCmd runs a test over agent pods reached through port-forwards.
func k8sRunCmd(ctx context.Context, e *env, args []string) int {
	return k8sRun(ctx, e, args, func(cl *k8s.Cluster, ns string) k8s.Reach { return k8s.PortForward(cl, ns, e.stderr) })
}

// k8sRun is k8s run with the way agents are reached given: the port-forward
// in use, loopback in the test that plays the kubelet.
func k8sRun(ctx context.Context, e *env, args []string, reach func(*k8s.Cluster, string) k8s.Reach) int {
	fs := newFlagSet(e, "k8s run", k8sRunUsage)
	var k k8sFlags
	k.register(fs)
	kubeconfig := fs.String("kubeconfig", "", "kubeconfig file (default: $KUBECONFIG, then ~/.kube/config)")
	kubeContext := fs.String("context", "", "kubeconfig context (default: the current one)")
	results := fs.String("results", app.DefaultResults, "parent directory of run directories")
	summaryJSON := fs.String("summary-json", "", "also write summary.json to this file")
	quiet := fs.Bool("quiet", false, "no live progress line")
	detach := fs.Bool("detach", false, "run the coordinator in the cluster too, and return once the run is created (k8s status, attach, fetch)")
	fs.DurationVar(&k.keep, "keep", 10*time.Minute, "with --detach: how long the finished coordinator serves its results for k8s fetch")
	var out outputFlags
	out.register(fs)
	pos, err := parseArgs(fs, args)
	if err != nil {
		return app.ExitBadInput
	}
	if len(pos) != 1 {
		return fail(e, usageErr("k8s run takes one test file: loadlens %s", k8sRunUsage))
	}
	s, p, lookup, err := k.spec(pos[0], *detach)
	if err == nil {
		warnLoopback(e, p)
	}
	if err != nil {
		return fail(e, err)
	}
	rc, err := out.runConfig(app.RunConfig{ResultsDir: *results, Out: e.stdout, TTY: e.tty, Quiet: *quiet, SummaryJSON: *summaryJSON,
		Args: storedArgs(fs, e.args), Version: app.Version})
	if err != nil {
		return fail(e, err)
	}
	if *detach {
		if err := localOnly(fs); err != nil {
			return fail(e, err)
		}
		s.Outs = out.outs // the coordinator in its pod sends them
		outputToken(e, s, p, rc.Outs)
		return k8sDetach(ctx, e, s, *kubeconfig, *kubeContext)
	}
	cl, objs, err := clusterObjects(s, *kubeconfig, *kubeContext)
	if err != nil {
		return fail(e, err)
	}
	var res app.RunResult
	coordinate := func(ctx context.Context, addrs []string) error {
		var err error
		res, err = dist.Coordinate(ctx, dist.Config{TestFile: pos[0], Env: lookup, Agents: addrs, Token: s.Token, Run: rc})
		return err
	}
	run := k8s.Run{Client: cl.Client, Objects: objs, Reach: reach(cl, s.Namespace), Coordinate: coordinate,
		Startup: k.startup, Log: e.stderr}
	e.watchStop()
	if err := run.Do(ctx); err != nil {
		fail(e, err)
		return app.ExitAfter(res.ExitCode, err)
	}
	return res.ExitCode
}

// warnLoopback warns when the test's base URL is this machine's loopback:
// from a pod, 127.0.0.1 is the pod itself, not the service the test was
// written against.
func warnLoopback(e *env, p *plan.Plan) {
	u, err := url.Parse(p.BaseURL)
	if err != nil || u.Hostname() == "" {
		return
	}
	host := u.Hostname()
	if ip := net.ParseIP(host); (ip != nil && ip.IsLoopback()) || host == "localhost" {
		fmt.Fprintf(e.stderr, "warning: base_url %s is loopback: from a pod it reaches the pod itself; give the service's address in the cluster (e.g. -e BASE_URL=http://svc.namespace:8080)\n", p.BaseURL)
	}
}

// localOnly refuses, with --detach, the flags of a coordinator here: the
// coordinator in its pod writes the run directory, serves the dashboard on
// its Service and prints no line here, so they would be ignored unsaid.
func localOnly(fs *flag.FlagSet) error {
	local := map[string]bool{"results": true, "summary-json": true, "quiet": true, "junit": true, "summary-md": true,
		"dashboard-addr": true, "dashboard-token": true, "no-dashboard": true}
	var set []string
	fs.Visit(func(f *flag.Flag) {
		if local[f.Name] {
			set = append(set, "--"+f.Name)
		}
	})
	if len(set) == 0 {
		return nil
	}
	return usageErr("%s: with --detach the coordinator runs in its pod, which writes the run directory (loadlens k8s fetch brings it here, "+
		"summary.json and report.html in it) and serves the dashboard on the run's Service", strings.Join(set, ", "))
}

// outputToken gives the coordinator's pod, through the run's Secret, the
// InfluxDB 2 token an influxdb2 output needs: the pod has not this
// machine's environment. A token from --env-secret is left to it.
func outputToken(e *env, s *k8s.Spec, p *plan.Plan, outs []plan.Output) {
	need := false
	for _, o := range append(slices.Clone(p.Outputs), outs...) {
		need = need || o.Kind == plan.OutInfluxDB2
	}
	if _, given := s.Placement.EnvSecrets[plan.InfluxTokenEnv]; !need || given {
		return
	}
	if tok := os.Getenv(plan.InfluxTokenEnv); tok != "" {
		s.Env[plan.InfluxTokenEnv] = tok
		return
	}
	fmt.Fprintf(e.stderr, "warning: an influxdb2 output needs $%[1]s, not set here: give the coordinator's pod it with --env-secret %[1]s=SECRET/KEY or --env-from-secret\n",
		plan.InfluxTokenEnv)
}
