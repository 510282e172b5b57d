package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/k8s"
	"github.com/loadlens/loadlens/internal/k8s/k8stest"
	"github.com/loadlens/loadlens/internal/testkit"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
)

// k8sTest is a test file over a target, with a data file the agents must receive.
func k8sTest(t *testing.T, target string, duration string) string {
	t.Helper()
	dir := t.TempDir()
	test := filepath.Join(dir, "shop.yaml")
	src := fmt.Sprintf("name: shop\nbase_url: %s\nscenarios:\n  browse:\n    rate: 20\n    duration: %s\n    data: data/users.csv\n    flow:\n      - get: /?u={{ user }}\n", target, duration)
	if err := os.WriteFile(test, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "data"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "data", "users.csv"), []byte("user\nann\nbob\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return test
}

// TestK8sRunOnAPIServer runs `loadlens k8s run` against a real API server.
// With no kubelet, the test plays it: for each index it creates the pod
// the Job controller would, starts `loadlens agent` with that pod's
// arguments and environment (resolved from the created Job, the token
// from the created Secret), and marks the pod ready. The one substitution
// is how the coordinator reaches an agent: a port-forward needs a kubelet,
// so the test's Reach returns the agent process's loopback address.
func TestK8sRunOnAPIServer(t *testing.T) {
	var withUser atomic.Int64
	k := newK8sCluster(t, k8sSetup{binary: true, target: func(w http.ResponseWriter, r *http.Request) {
		if u := r.URL.Query().Get("u"); u == "ann" || u == "bob" {
			withUser.Add(1)
		}
	}})
	srv, c, bin, served := k.srv, k.c, k.bin, &k.served
	test := k8sTest(t, k.target, "3s")
	results := t.TempDir()

	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	kl := &kubelet{t: t, c: c, bin: bin, addrs: map[int]chan string{}}
	go func() {
		if err := kl.play(ctx, 2); err != nil {
			t.Errorf("playing the kubelet: %v", err)
			stop() // the run cannot start: end it now
		}
	}()
	var out, errb, influx testkit.Buffer
	store := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		influx.Write(b)
		w.WriteHeader(http.StatusNoContent)
	}))
	defer store.Close()
	e := &env{stdout: &out, stderr: &errb}
	code := k8sRun(ctx, e, []string{test, "--agents", "2", "--namespace", "perf", "--kubeconfig", srv.Kubeconfig,
		"--image", "example/loadlens:test", "--cpu", "500m", "--memory", "256Mi", "--results", results, "--quiet", "--no-dashboard",
		"--out", "influxdb=" + store.URL + "/write?db=k6"},
		func(*k8s.Cluster, string) k8s.Reach { return kl.reach })
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out.String(), errb.String())
	}
	kl.checkJob(t)
	kl.waitAgents(t)

	runs, _ := filepath.Glob(filepath.Join(results, "*", "summary.json"))
	if len(runs) != 1 {
		t.Fatalf("want one run directory in %s, found %v", results, runs)
	}
	var s struct {
		Metrics map[string]map[string]any `json:"metrics"`
	}
	b, err := os.ReadFile(runs[0])
	if err != nil || json.Unmarshal(b, &s) != nil {
		t.Fatalf("summary.json: %v", err)
	}
	count, _ := s.Metrics["http_reqs"]["count"].(float64)
	if int64(count) != served.Load() || count < 50 {
		t.Errorf("summary.json counts %v requests, the target served %d (want equal, about 60)", count, served.Load())
	}
	if !strings.Contains(influx.String(), "http_reqs,") {
		t.Errorf("k8s run sent nothing to its --out InfluxDB:\n%.300s", influx.String())
	}
	if withUser.Load() != served.Load() {
		t.Errorf("%d of %d requests carried a user from the data file", withUser.Load(), served.Load())
	}
	for _, want := range []string{"created Job, Secret and ConfigMap perf/loadlens-shop-", "agent 0 (pod ", "): ready", "deleted Job, pods, Secret and ConfigMap"} {
		if !strings.Contains(errb.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, errb.String())
		}
	}
	assertNothingLeft(t, c)
	t.Logf("stderr:\n%s", errb.String())
}

// kubelet plays the Job controller and the kubelets of a cluster.
type kubelet struct {
	t     *testing.T
	c     kubernetes.Interface
	bin   string
	mu    sync.Mutex
	addrs map[int]chan string // each agent's loopback address, once it listens
	job   *batchv1.Job
	sec   *corev1.Secret
	procs []*exec.Cmd
	outs  []*testkit.Buffer
}

func (k *kubelet) addr(i int) chan string {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.addrs[i] == nil {
		k.addrs[i] = make(chan string, 1)
	}
	return k.addrs[i]
}

// reach is the test's Reach: the agent's own loopback address.
func (k *kubelet) reach(ctx context.Context, a k8s.Agent) (string, error) {
	select {
	case addr := <-k.addr(a.Index):
		return addr, nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// play waits for the run's Job to be resumed, then starts its n pods.
func (k *kubelet) play(ctx context.Context, n int) error {
	job, err := waitResumedJob(ctx, k.c, managedBy)
	if err != nil {
		return err
	}
	sec, err := k.c.CoreV1().Secrets(job.Namespace).Get(ctx, job.Name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	k.mu.Lock()
	k.job, k.sec = job, sec
	k.mu.Unlock()
	for i := range n {
		if err := k.startPod(ctx, job, i); err != nil {
			return fmt.Errorf("pod %d: %w", i, err)
		}
	}
	return nil
}

// startPod creates pod i and runs its container as a process: the
// arguments of the Job's template, its environment resolved as the kubelet
// would, the mounted volumes stood in for by directories.
func (k *kubelet) startPod(ctx context.Context, job *batchv1.Job, i int) error {
	pod, err := k8stest.CreatePod(ctx, k.c, job, i)
	if err != nil {
		return err
	}
	root := k.t.TempDir()
	mounts := map[string]string{}
	ctr := pod.Spec.Containers[0]
	for _, m := range ctr.VolumeMounts {
		mounts[m.MountPath] = filepath.Join(root, m.Name)
	}
	if err := fillVolumes(ctx, k.c, pod, root); err != nil {
		return err
	}
	var env []string
	for _, ev := range ctr.Env {
		val, err := envValue(ctx, k.c, pod, ev)
		if err != nil {
			return err
		}
		for mount, dir := range mounts {
			if rest, ok := strings.CutPrefix(val, mount+"/"); ok {
				val = filepath.Join(dir, rest) // a path in a volume: the stand-in directory
				break
			}
		}
		if ev.Name == k8s.ListenEnv {
			val = "127.0.0.1:0" // each pod has its own network; on one host each agent takes a free port
		}
		env = append(env, ev.Name+"="+val)
	}
	cmd := exec.CommandContext(ctx, k.bin, ctr.Args...)
	cmd.Env = append(os.Environ(), env...)
	cmd.Dir = mounts[ctr.WorkingDir]
	rest := &testkit.Buffer{}
	addr, err := testkit.StartAgent(cmd, rest)
	if cmd.Process != nil {
		k.mu.Lock()
		k.procs, k.outs = append(k.procs, cmd), append(k.outs, rest)
		k.mu.Unlock()
	}
	if err != nil {
		return fmt.Errorf("agent %d: %w", i, err)
	}
	if _, err := k8stest.SetStatus(ctx, k.c, pod, k8stest.Ready()); err != nil {
		return err
	}
	k.addr(i) <- addr
	return nil
}

// checkJob checks the objects the run created, as the kubelet saw them.
func (k *kubelet) checkJob(t *testing.T) {
	t.Helper()
	k.mu.Lock()
	job, sec := k.job, k.sec
	k.mu.Unlock()
	if job == nil {
		t.Fatal("the kubelet never saw the Job")
	}
	s := job.Spec
	if *s.CompletionMode != batchv1.IndexedCompletion || *s.Completions != 2 || *s.Parallelism != 2 || *s.ActiveDeadlineSeconds <= 0 {
		t.Errorf("Job spec: %+v", s)
	}
	ctr := s.Template.Spec.Containers[0]
	if ctr.Image != "example/loadlens:test" || ctr.Resources.Limits.Cpu().String() != "500m" || ctr.Resources.Requests.Memory().String() != "256Mi" {
		t.Errorf("container: image %q resources %+v", ctr.Image, ctr.Resources)
	}
	if len(sec.OwnerReferences) != 1 || sec.OwnerReferences[0].UID != job.UID || len(sec.Data["token"]) != 64 {
		t.Errorf("Secret: owners %+v, token of %d bytes", sec.OwnerReferences, len(sec.Data["token"]))
	}
}

// waitAgents checks that every agent exited by itself after its run (--once).
func (k *kubelet) waitAgents(t *testing.T) {
	t.Helper()
	k.mu.Lock()
	procs, outs := k.procs, k.outs
	k.mu.Unlock()
	for i, p := range procs {
		done := make(chan error, 1)
		go func() { done <- p.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("agent %d: %v\n%s", i, err, outs[i].String())
			}
		case <-time.After(30 * time.Second):
			t.Errorf("agent %d still runs 30s after its run (a Job's pod must exit)", i)
		}
	}
}

// TestK8sManifestDryRun sends `loadlens k8s manifest`'s output to a real
// API server with dryRun=All and strict field validation, the request
// `kubectl apply --dry-run=server` makes for new objects: the server
// validates and admits them, stores none. The whole run (coordinator,
// agents, Service, RBAC) goes through kubectl itself; the agents-only
// manifest through client-go's equivalent request.
func TestK8sManifestDryRun(t *testing.T) {
	k := newK8sCluster(t, k8sSetup{})
	srv, c := k.srv, k.c
	cfg, err := clientcmd.BuildConfigFromFlags("", srv.Kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	dyn := dynamic.NewForConfigOrDie(cfg)
	test := k8sTest(t, "http://127.0.0.1:9", "1m")

	t.Run("the whole run, through kubectl", func(t *testing.T) { dryRunWholeRun(t, srv, c, test) })
	t.Run("the agents only, through client-go", func(t *testing.T) { dryRunAgentsOnly(t, dyn, c, test) })
}

// dryRunWholeRun: the whole run, with every placement flag and a
// kubernetes: section, through kubectl's strict server-side dry run.
func dryRunWholeRun(t *testing.T, srv *k8stest.APIServer, c kubernetes.Interface, test string) {
	placed := filepath.Join(filepath.Dir(test), "placed.yaml")
	src, err := os.ReadFile(test)
	if err != nil {
		t.Fatal(err)
	}
	section := "kubernetes:\n  affinity:\n    nodeAffinity:\n      requiredDuringSchedulingIgnoredDuringExecution:\n        nodeSelectorTerms:\n" +
		"          - matchExpressions: [{key: rack, operator: In, values: [a]}]\n  tolerations: [{key: spot, operator: Exists, effect: NoExecute}]\n"
	if err := os.WriteFile(placed, append(src, section...), 0o600); err != nil {
		t.Fatal(err)
	}
	// --affinity replaces the file's, in the form k6-operator's TestRun takes (a pod spec's)
	affinity := filepath.Join(filepath.Dir(test), "affinity.yaml")
	if err := os.WriteFile(affinity, []byte("nodeAffinity:\n  requiredDuringSchedulingIgnoredDuringExecution:\n    nodeSelectorTerms:\n"+
		"      - matchExpressions: [{key: zone, operator: In, values: [a]}]\npodAntiAffinity:\n  preferredDuringSchedulingIgnoredDuringExecution:\n"+
		"    - weight: 100\n      podAffinityTerm: {topologyKey: kubernetes.io/hostname, labelSelector: {matchLabels: {app: db}}}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := Main(context.Background(), []string{"k8s", "manifest", placed, "--agents", "20", "--namespace", "perf", "--cpu", "2", "--memory", "2Gi", "-e", "API_KEY=k",
		"--node-selector", "pool=load", "--toleration", "dedicated=load:NoSchedule", "--spread", "--image-pull-secret", "regcred", "--service-account", "loadgen",
		"--env-from-secret", "api-keys", "--priority-class", "load-test", "--pvc", "results", "--affinity", "@" + affinity, "--env-secret", "API_TOKEN=api-keys/token",
		"--out", "prometheus-rw=http://ci:pw-in-userinfo@prom.monitoring:9090/api/v1/write?token=tok-in-query"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, want := range []string{"topologySpreadConstraints:", "priorityClassName: load-test", "claimName: results", "serviceAccountName: loadgen",
		"- name: regcred", "name: api-keys", "pool: load", "key: zone", "podAntiAffinity:", "weight: 100", "key: spot", "key: dedicated",
		"name: API_TOKEN\n          valueFrom:\n            secretKeyRef:\n              key: token\n              name: api-keys"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the manifest lacks %q", want)
		}
	}
	assertManifestHidesOutputs(t, out.Bytes(), "pw-in-userinfo")
	assertManifestHidesOutputs(t, out.Bytes(), "tok-in-query")
	objs := decodeAll(t, out.Bytes())
	kinds := map[string]int{}
	for _, o := range objs {
		kinds[o.GetKind()]++
		terms, _, _ := unstructured.NestedSlice(o.Object, "spec", "template", "spec", "affinity", "nodeAffinity",
			"requiredDuringSchedulingIgnoredDuringExecution", "nodeSelectorTerms")
		if o.GetKind() == "Job" && !strings.Contains(fmt.Sprint(terms), "key:zone") {
			t.Errorf("Job %s: node affinity %v, want --affinity's (zone), not the file's (rack)", o.GetName(), terms)
		}
	}
	if len(objs) != 9 || kinds["Job"] != 2 || kinds["ConfigMap"] != 2 || kinds["Service"] != 1 || kinds["Role"] != 1 || kinds["RoleBinding"] != 1 || kinds["ServiceAccount"] != 1 {
		t.Fatalf("objects by kind %v, want a whole run of 9", kinds)
	}
	got := kubectlDryRun(t, srv.Kubeconfig, out.Bytes())
	if strings.Count(got, "(server dry run)") != 9 {
		t.Errorf("kubectl apply --dry-run=server --validate=strict:\n%s", got)
	}
	assertNothingLeft(t, c)
	// The server validates for real: a field the Job has not is refused.
	bad := bytes.Replace(out.Bytes(), []byte("  backoffLimit: 0\n"), []byte("  backoffLimit: 0\n  backofLimit: 1\n"), 1)
	if bytes.Equal(bad, out.Bytes()) {
		t.Fatal("the coordinator's Job has no backoffLimit: 0")
	}
	cmd := exec.Command("kubectl", "--kubeconfig", srv.Kubeconfig, "apply", "--dry-run=server", "--validate=strict", "-f", "-")
	cmd.Stdin = bytes.NewReader(bad)
	if b, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(b), "backofLimit") {
		t.Errorf("a Job with an unknown field: %v\n%s", err, b)
	}
}

// dryRunAgentsOnly: --agents-only through client-go's same request.
func dryRunAgentsOnly(t *testing.T, dyn dynamic.Interface, c kubernetes.Interface, test string) {
	var out, errb bytes.Buffer
	if code := Main(context.Background(), []string{"k8s", "manifest", test, "--agents-only", "--agents", "20", "--namespace", "perf", "--cpu", "2", "--memory", "2Gi"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	objs := decodeAll(t, out.Bytes())
	if len(objs) != 3 {
		t.Fatalf("want 3 objects, got %d", len(objs))
	}
	for _, o := range objs {
		if err := dryRun(dyn, o); err != nil {
			t.Errorf("%s %s refused: %v", o.GetKind(), o.GetName(), err)
		}
	}
	assertNothingLeft(t, c)
	bad := objs[2].DeepCopy()
	if err := unstructured.SetNestedField(bad.Object, int64(-1), "spec", "completions"); err != nil {
		t.Fatal(err)
	}
	if err := dryRun(dyn, bad); !apierrors.IsInvalid(err) {
		t.Errorf("a Job with completions -1: %v, want Invalid", err)
	}
}

// kubectlDryRun applies a manifest with kubectl's server-side dry run and
// strict validation; without kubectl the test is skipped (or fails in CI).
func kubectlDryRun(t *testing.T, kubeconfig string, manifest []byte) string {
	t.Helper()
	if _, err := exec.LookPath("kubectl"); err != nil {
		if os.Getenv("LOADLENS_CI") == "1" {
			t.Fatal("kubectl is not installed")
		}
		t.Skip("kubectl is not installed")
	}
	cmd := exec.Command("kubectl", "--kubeconfig", kubeconfig, "apply", "--dry-run=server", "--validate=strict", "-f", "-")
	cmd.Stdin = bytes.NewReader(manifest)
	b, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("kubectl apply --dry-run=server --validate=strict: %v\n%s", err, b)
	}
	return string(b)
}

// TestK8sRunCtrlC interrupts the real binary while it waits for its pods,
// as Ctrl-C does, and checks that it deletes everything it created.
func TestK8sRunCtrlC(t *testing.T) {
	k := newK8sCluster(t, k8sSetup{binary: true})
	srv, c, bin := k.srv, k.c, k.bin
	test := k8sTest(t, "http://127.0.0.1:9", "1m")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "k8s", "run", test, "--agents", "3", "--namespace", "perf", "--kubeconfig", srv.Kubeconfig)
	cmd.Dir = t.TempDir()
	var errb testkit.Buffer
	cmd.Stdout, cmd.Stderr = &errb, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	job, err := waitResumedJob(ctx, c, managedBy)
	if err != nil {
		t.Fatalf("%v\n%s", err, errb.String())
	}
	// one pod is pending, as on a full cluster: its deletion is checked too
	p, err := k8stest.CreatePod(ctx, c, job, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := k8stest.SetStatus(ctx, c, p, corev1.PodStatus{Phase: corev1.PodPending}); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(time.Minute)
	for !strings.Contains(errb.String(), "agent 0 (pod "+p.Name+"): pending") {
		if time.Now().After(deadline) {
			t.Fatalf("the pending pod was never reported:\n%s", errb.String())
		}
		time.Sleep(50 * time.Millisecond) // polling the output, bounded by the deadline
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	err = cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() == 0 {
		t.Errorf("exit %v after Ctrl-C, want a failure code", err)
	}
	if !strings.Contains(errb.String(), "deleted Job, pods, Secret and ConfigMap perf/"+job.Name) {
		t.Errorf("output:\n%s", errb.String())
	}
	assertNothingLeft(t, c)
}

func decodeAll(t *testing.T, b []byte) []*unstructured.Unstructured {
	t.Helper()
	dec := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(b), 4096)
	var objs []*unstructured.Unstructured
	for range 20 {
		var m map[string]any
		if err := dec.Decode(&m); errors.Is(err, io.EOF) {
			return objs
		} else if err != nil {
			t.Fatal(err)
		}
		if m != nil {
			objs = append(objs, &unstructured.Unstructured{Object: m})
		}
	}
	t.Fatal("more documents than a run has")
	return nil
}

func dryRun(dyn dynamic.Interface, o *unstructured.Unstructured) error {
	gvr := map[string]schema.GroupVersionResource{
		"Secret":    {Version: "v1", Resource: "secrets"},
		"ConfigMap": {Version: "v1", Resource: "configmaps"},
		"Job":       {Group: "batch", Version: "v1", Resource: "jobs"},
	}[o.GetKind()]
	_, err := dyn.Resource(gvr).Namespace(o.GetNamespace()).Create(context.Background(), o,
		metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}, FieldValidation: "Strict"})
	return err
}

// managedBy selects the objects loadlens made.
const managedBy = "app.kubernetes.io/managed-by=loadlens"

// assertNothingLeft checks that no loadlens object remains in perf.
func assertNothingLeft(t *testing.T, c kubernetes.Interface) {
	t.Helper()
	left, err := leftBehind(c, managedBy)
	if err != nil {
		t.Fatal(err)
	}
	if left != "" {
		t.Errorf("left behind: %s", left)
	}
}

// leftBehind counts the objects in namespace perf that selector matches,
// by kind; "" when there are none.
func leftBehind(c kubernetes.Interface, selector string) (string, error) {
	ctx := context.Background()
	sel := metav1.ListOptions{LabelSelector: selector}
	jobs, err1 := c.BatchV1().Jobs("perf").List(ctx, sel)
	secs, err2 := c.CoreV1().Secrets("perf").List(ctx, sel)
	cms, err3 := c.CoreV1().ConfigMaps("perf").List(ctx, sel)
	pods, err4 := c.CoreV1().Pods("perf").List(ctx, sel)
	svcs, err5 := c.CoreV1().Services("perf").List(ctx, sel)
	sas, err6 := c.CoreV1().ServiceAccounts("perf").List(ctx, sel)
	roles, err7 := c.RbacV1().Roles("perf").List(ctx, sel)
	rbs, err8 := c.RbacV1().RoleBindings("perf").List(ctx, sel)
	if err := errors.Join(err1, err2, err3, err4, err5, err6, err7, err8); err != nil {
		return "", err
	}
	if n := len(jobs.Items) + len(secs.Items) + len(cms.Items) + len(pods.Items) + len(svcs.Items) + len(sas.Items) + len(roles.Items) + len(rbs.Items); n == 0 {
		return "", nil
	}
	return fmt.Sprintf("%d Jobs, %d Secrets, %d ConfigMaps, %d pods, %d Services, %d ServiceAccounts, %d Roles, %d RoleBindings",
		len(jobs.Items), len(secs.Items), len(cms.Items), len(pods.Items), len(svcs.Items), len(sas.Items), len(roles.Items), len(rbs.Items)), nil
}

func TestK8sBadInput(t *testing.T) {
	test := k8sTest(t, "http://127.0.0.1:9", "1m")
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	if err := os.WriteFile(bad, []byte("name: x\nscenarios:\n  s:\n    rate: ten\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	placedBad := filepath.Join(filepath.Dir(test), "placed-bad.yaml")
	if err := os.WriteFile(placedBad, []byte("name: x\nkubernetes:\n  node_selectors: {a: b}\nbase_url: http://shop.perf\nscenarios:\n  s:\n    rate: 1\n    duration: 1s\n    flow:\n      - get: /\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"no agents", []string{"k8s", "manifest", test}, "--agents: give the number of agent pods"},
		{"bad cpu", []string{"k8s", "manifest", test, "--agents", "2", "--cpu", "lots"}, `--cpu "lots": not a Kubernetes quantity`},
		{"bad test", []string{"k8s", "manifest", bad, "--agents", "2"}, bad + ":4:"},
		{"no test", []string{"k8s", "run", "--agents", "2"}, "k8s run takes one test file"},
		{"bad kubeconfig", []string{"k8s", "run", test, "--agents", "2", "--kubeconfig", filepath.Join(t.TempDir(), "none")}, "kubeconfig:"},
		{"bad section", []string{"k8s", "manifest", placedBad, "--agents", "2"}, placedBad + `:3:3: kubernetes: unknown field "node_selectors"`},
		{"bad toleration", []string{"k8s", "manifest", test, "--agents", "2", "--toleration", "a=b:Always"}, `--toleration "a=b:Always": tolerations[0].effect`},
		{"bad node selector", []string{"k8s", "manifest", test, "--agents", "2", "--node-selector", "pool"}, `--node-selector "pool": want KEY=VALUE`},
		{"bad --env-secret", []string{"k8s", "manifest", test, "--agents", "2", "--env-secret", "API_TOKEN=api-keys"}, `--env-secret: env_secrets.API_TOKEN: "api-keys": want SECRET/KEY`},
		{"--env-secret without a name", []string{"k8s", "manifest", test, "--agents", "2", "--env-secret", "api-keys/token"}, `--env-secret "api-keys/token": want VAR=SECRET/KEY`},
		{"local flags with --detach", []string{"k8s", "run", test, "--agents", "2", "--detach", "--junit", "j.xml", "--quiet"}, "--junit, --quiet: with --detach the coordinator runs in its pod"},
		{"bad --out", []string{"k8s", "manifest", test, "--agents", "2", "--out", "graphite=http://x"}, "--out: "},
		{"affinity misspelt", []string{"k8s", "manifest", test, "--agents", "2", "--affinity", `{"nodeAfinity": {}}`}, `--affinity:1:2: unknown field "nodeAfinity"`},
		{"affinity refused", []string{"k8s", "manifest", test, "--agents", "2", "--affinity", "podAntiAffinity: {requiredDuringSchedulingIgnoredDuringExecution: [{labelSelector: {}}]}"},
			"--affinity: affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: required"},
		{"affinity file missing", []string{"k8s", "manifest", test, "--agents", "2", "--affinity", "@" + filepath.Join(t.TempDir(), "none.yaml")}, "--affinity: open "},
		{"no run", []string{"k8s", "status"}, "give one run's name"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := main(tc.args...)
			if code != 2 || !strings.Contains(stderr, tc.want) || stdout != "" {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit 2 and %q", code, stdout, stderr, tc.want)
			}
		})
	}
}

// TestK8sWarnsOfALoopbackTarget: a test written against 127.0.0.1 would
// load each pod's own loopback; the manifest says so, and does not for a
// cluster address.
func TestK8sWarnsOfALoopbackTarget(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		base string
		warn bool
	}{
		{"http://127.0.0.1:8080", true},
		{"http://localhost:8080", true},
		{"http://shop.perf:8080", false},
	} {
		t.Run(tt.base, func(t *testing.T) {
			test := filepath.Join(dir, "t.yaml")
			src := "base_url: " + tt.base + "\nscenarios:\n  s:\n    rate: 5\n    duration: 2s\n    flow:\n      - get: /\n"
			if err := os.WriteFile(test, []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			var out, errb bytes.Buffer
			if code := Main(context.Background(), []string{"k8s", "manifest", test, "--agents", "2"}, &out, &errb); code != 0 {
				t.Fatalf("exit %d: %s", code, errb.String())
			}
			if got := strings.Contains(errb.String(), "is loopback: from a pod it reaches the pod itself"); got != tt.warn {
				t.Errorf("warned %v, want %v: %q", got, tt.warn, errb.String())
			}
		})
	}
}
