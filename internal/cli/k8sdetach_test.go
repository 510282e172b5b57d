package cli

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/k8s"
	"github.com/loadlens/loadlens/internal/k8s/k8stest"
	"github.com/loadlens/loadlens/internal/testkit"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// TestK8sDetachedRun runs a whole run in the cluster: `k8s run --detach`
// creates it and returns; the test plays the Job controller and kubelet
// for both Jobs, starting real loadlens processes with exactly the pods'
// arguments and environment (each pod on its own loopback address, as a
// pod has its own IP; the coordinator with its service account's token
// from the API server's TokenRequest); `k8s status` reads it, `k8s attach`
// disconnects and reattaches, `k8s fetch` brings the run directory back,
// and it must count what the target served. The one substitution is how
// the CLI reaches the coordinator pod's port (a port-forward needs a
// kubelet): the pod's own address.
func TestK8sDetachedRun(t *testing.T) {
	k := newK8sCluster(t, k8sSetup{binary: true, target: counting})
	srv, c, kc, served := k.srv, k.c, k.kc, &k.served
	test := k8sTest(t, k.target, "6s")
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	kl := newPodKubelet(t, c, k.bin, srv.URL)
	defer kl.stop()
	go kl.play(ctx, 2)
	// the coordinator's --out: a store on 127.0.0.1 (which the pod reaches as the host's processes do), with a password in its URL
	store, password := newInfluxStore(t), "pw-"+k8s.NewToken()[:12]
	outURL := strings.Replace(store.URL, "http://", "http://ci:"+password+"@", 1) + "/write?db=k6"
	// and an InfluxDB 2, whose token is this machine's environment, which a pod has not
	store2, token := newInfluxStore(t), "tok-"+k8s.NewToken()[:12]
	t.Setenv("LOADLENS_INFLUXDB_TOKEN", token)

	out := mustRun(t, ctx, 0, nil, append([]string{"k8s", "run", test, "--detach", "--agents", "2", "--image", "example/loadlens:test",
		"--cpu", "500m", "--memory", "256Mi", "--ttl", "90s", "--keep", "3m", "--out", "influxdb=" + outURL,
		"--out", "influxdb2=" + store2.URL + "/api/v2/write?org=o&bucket=b"}, kc...)...)
	m := regexp.MustCompile(`created run perf/(loadlens-shop-[0-9a-f]{6})`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("k8s run --detach said:\n%s", out)
	}
	run := m[1]
	if st := mustRun(t, ctx, 0, nil, append([]string{"k8s", "status", run}, kc...)...); !strings.Contains(st, "run perf/"+run+": ") {
		t.Errorf("k8s status:\n%s", st)
	}
	reach := func(*k8s.Cluster, string) k8s.ReachPort { return kl.reach }

	// attach, and disconnect once the run is under way
	actx, detach := context.WithCancel(ctx)
	var first testkit.Buffer
	done := make(chan int, 1)
	go func() {
		done <- k8sAttach(actx, &env{stdout: &first, stderr: &first}, append([]string{run}, kc...), reach)
	}()
	waitFor(t, &first, " · agents 2/2", time.Minute, kl) // the live line: the coordinator's figures
	if line := regexp.MustCompile(`\[0:0\d/0:06\] [\d.,]+ req/s · p95 [\d.]+[mµ]?s · errors [\d.]+ ?% · in flight \d+ · VUs \d+/\d+.* · agents 2/2`); !line.MatchString(first.String()) {
		t.Errorf("attach shows no live line as a local run's:\n%s", first.String())
	}
	checkDashboard(t, c, kl, run, srv.Kubeconfig)
	detach()
	if code := <-done; code != 0 || !strings.Contains(first.String(), "detached; the run goes on") {
		t.Errorf("detaching: exit %d\n%s", code, first.String())
	}
	// reattach until the verdict
	var second testkit.Buffer
	if code := k8sAttach(ctx, &env{stdout: &second, stderr: &second}, append([]string{run}, kc...), reach); code != 0 || !strings.Contains(second.String(), run+": pass (exit code 0)") {
		t.Fatalf("attach: exit %d\n%s\n%s", code, second.String(), kl.logs())
	}
	// the coordinator writes its status ConfigMap after the verdict reached attach: read it until it says so
	var st string
	for deadline := time.Now().Add(30 * time.Second); ; {
		st = mustRun(t, ctx, 0, nil, append([]string{"k8s", "status", run}, kc...)...)
		if strings.Contains(st, ": finished") || time.Now().After(deadline) {
			break
		}
		select {
		case <-ctx.Done():
		case <-time.After(200 * time.Millisecond):
		}
	}
	if !strings.Contains(st, ": finished") || !strings.Contains(st, "verdict: pass (exit code 0)") {
		t.Errorf("k8s status after the run:\n%s", st)
	}

	results := t.TempDir()
	var fo testkit.Buffer
	if code := k8sFetch(ctx, &env{stdout: &fo, stderr: &fo}, append([]string{run, "--results", results}, kc...), reach); code != 0 {
		t.Fatalf("fetch: exit %d\n%s", code, fo.String())
	}
	if got := summaryCount(t, results); got != served.Load() || got < 60 {
		t.Errorf("the fetched summary.json counts %d requests, the target served %d (want equal, about 80)", got, served.Load())
	}
	if code := kl.waitCoordinator(t, 30*time.Second); code != 0 {
		t.Errorf("the coordinator exited %d after its results were fetched, want 0 (pass)\n%s", code, kl.logs())
	}
	checkOwnedAndTTL(t, c, run, 90)
	if ok, got := store.received("ci:" + password); !ok {
		t.Errorf("the coordinator's --out store got no metrics with the URL's credentials: %s", got)
	}
	if ok, got := store2.received("token:" + token); !ok {
		t.Errorf("the coordinator's influxdb2 store got no metrics with $LOADLENS_INFLUXDB_TOKEN: %s", got)
	}
	for _, secret := range []string{password, token} {
		assertNoSecretInObjects(t, c, run, secret)
		assertNoSecretInFiles(t, results, secret)
		for _, p := range []string{out, st, first.String(), second.String(), fo.String(), kl.logs()} {
			if strings.Contains(p, secret) {
				t.Errorf("printed the credential %s:\n%s", secret, p)
			}
		}
	}
	mustRun(t, ctx, 0, nil, append([]string{"k8s", "delete", run}, kc...)...)
	assertNothingLeft(t, c)
}

// mustRun runs the CLI in-process and checks its exit code.
func mustRun(t *testing.T, ctx context.Context, want int, _ []string, args ...string) string {
	t.Helper()
	var out, errb testkit.Buffer
	if code := Main(ctx, args, &out, &errb); code != want {
		t.Fatalf("loadlens %s: exit %d, want %d\n%s%s", strings.Join(args, " "), code, want, out.String(), errb.String())
	}
	return out.String()
}

func waitFor(t *testing.T, b *testkit.Buffer, want string, within time.Duration, kl *podKubelet) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !strings.Contains(b.String(), want) {
		if time.Now().After(deadline) {
			t.Fatalf("never saw %q:\n%s\n%s", want, b.String(), kl.logs())
		}
		time.Sleep(50 * time.Millisecond) // polling output, bounded by the deadline
	}
}

func summaryCount(t *testing.T, results string) int64 {
	t.Helper()
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
	n, _ := s.Metrics["http_reqs"]["count"].(float64)
	return int64(n)
}

// checkOwnedAndTTL: the coordinator's Job owns every other object, and
// both Jobs carry the TTL, so the cluster's TTL controller and garbage
// collector (which no test server runs) delete the run.
func checkOwnedAndTTL(t *testing.T, c kubernetes.Interface, run string, want int32) {
	t.Helper()
	ctx := context.Background()
	coord, err := c.BatchV1().Jobs("perf").Get(ctx, k8s.CoordinatorName(run), metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	agents, err := c.BatchV1().Jobs("perf").Get(ctx, run, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range []*batchv1.Job{coord, agents} {
		if ttl := j.Spec.TTLSecondsAfterFinished; ttl == nil || *ttl != want {
			t.Errorf("Job %s: ttlSecondsAfterFinished %v, want %d", j.Name, ttl, want)
		}
	}
	owned := []metav1.Object{agents}
	sec, err1 := c.CoreV1().Secrets("perf").Get(ctx, run, metav1.GetOptions{})
	cm, err2 := c.CoreV1().ConfigMaps("perf").Get(ctx, k8s.StatusName(run), metav1.GetOptions{})
	svc, err3 := c.CoreV1().Services("perf").Get(ctx, run, metav1.GetOptions{})
	role, err4 := c.RbacV1().Roles("perf").Get(ctx, k8s.CoordinatorName(run), metav1.GetOptions{})
	sa, err5 := c.CoreV1().ServiceAccounts("perf").Get(ctx, k8s.CoordinatorName(run), metav1.GetOptions{})
	rb, err6 := c.RbacV1().RoleBindings("perf").Get(ctx, k8s.CoordinatorName(run), metav1.GetOptions{})
	if err := errors.Join(err1, err2, err3, err4, err5, err6); err != nil {
		t.Fatal(err)
	}
	owned = append(owned, sec, cm, svc, role, sa, rb)
	for _, o := range owned {
		if refs := o.GetOwnerReferences(); len(refs) != 1 || refs[0].UID != coord.UID {
			t.Errorf("%s: owners %+v, want the coordinator's Job", o.GetName(), refs)
		}
	}
}

// podKubelet plays the Job controller and the kubelets for both Jobs of an
// in-cluster run: each pod gets its own loopback address as its IP.
type podKubelet struct {
	t       *testing.T
	c       kubernetes.Interface
	bin     string
	api     *url.URL
	net     string // 127.x.y.: the pods' addresses
	mu      sync.Mutex
	ips     map[string]string // pod name → IP
	procs   []*exec.Cmd
	outs    []*testkit.Buffer
	coord   chan int // the coordinator's exit code
	stopped chan struct{}
	coordP  *exec.Cmd // the coordinator's process
	agentsP []*exec.Cmd
	// finished is when the coordinator's Job finished, as its status
	// says (to the second): the TTL counts from it
	finished time.Time
}

func newPodKubelet(t *testing.T, c kubernetes.Interface, bin, api string) *podKubelet {
	u, err := url.Parse(api)
	if err != nil {
		t.Fatal(err)
	}
	var b [2]byte
	_, _ = rand.Read(b[:])
	return &podKubelet{t: t, c: c, bin: bin, api: u, net: fmt.Sprintf("127.%d.%d.", 1+int(b[0])%250, b[1]),
		ips: map[string]string{}, coord: make(chan int, 1), stopped: make(chan struct{})}
}

func (k *podKubelet) stop() {
	k.mu.Lock()
	defer k.mu.Unlock()
	for _, p := range k.procs {
		if p.ProcessState == nil && p.Process != nil {
			_ = p.Process.Kill()
		}
	}
}

func (k *podKubelet) logs() string {
	k.mu.Lock()
	defer k.mu.Unlock()
	var b strings.Builder
	for i, o := range k.outs {
		fmt.Fprintf(&b, "--- pod process %d:\n%s\n", i, o.String())
	}
	return b.String()
}

// reach is the test's ReachPort: the pod's own address.
func (k *podKubelet) reach(_ context.Context, pod string, port int) (string, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	ip, ok := k.ips[pod]
	if !ok {
		return "", fmt.Errorf("no pod %s started", pod)
	}
	return net.JoinHostPort(ip, fmt.Sprint(port)), nil
}

func (k *podKubelet) waitCoordinator(t *testing.T, within time.Duration) int {
	t.Helper()
	select {
	case code := <-k.coord:
		return code
	case <-time.After(within):
		t.Fatalf("the coordinator did not exit within %s", within)
		return -1
	}
}

// play waits for the coordinator's Job to be resumed, then starts the n
// agents' pods and the coordinator's.
func (k *podKubelet) play(ctx context.Context, n int) {
	coord, err := waitResumedJob(ctx, k.c, k8s.ComponentKey+"=coordinator")
	if err != nil {
		k.t.Error(err)
		return
	}
	run := coord.Labels[k8s.RunLabel]
	agents, err := k.c.BatchV1().Jobs("perf").Get(ctx, run, metav1.GetOptions{})
	if err != nil {
		k.t.Error(err)
		return
	}
	for i := range n {
		p, err := k8stest.CreatePod(ctx, k.c, agents, i)
		if err == nil {
			err = k.startPod(ctx, p, k.net+fmt.Sprint(10+i), 6565, nil)
		}
		if err != nil {
			k.t.Errorf("agent %d: %v", i, err)
			return
		}
	}
	p, err := k8stest.CreatePod(ctx, k.c, coord, 0)
	if err == nil {
		err = k.startPod(ctx, p, k.net+"2", k8s.ControlPort, func(code int) { k.finishJob(coord, code); k.coord <- code })
	}
	if err != nil {
		k.t.Errorf("coordinator: %v", err)
	}
}

// startPod runs pod's container as a process at ip, with the volumes
// stood in for by directories, and marks the pod ready once port accepts
// a connection (its probe). exited, if set, hears the exit code.
func (k *podKubelet) startPod(ctx context.Context, pod *corev1.Pod, ip string, port int, exited func(int)) error {
	root := k.t.TempDir()
	ctr := pod.Spec.Containers[0]
	mounts := map[string]string{}
	for _, m := range ctr.VolumeMounts {
		mounts[m.MountPath] = filepath.Join(root, m.Name)
	}
	if err := fillVolumes(ctx, k.c, pod, root); err != nil {
		return err
	}
	local := func(v string) string {
		v = strings.ReplaceAll(v, "0.0.0.0:", ip+":") // the pod's own network: its IP
		for mount, dir := range mounts {
			if v == mount {
				return dir
			}
			if rest, ok := strings.CutPrefix(v, mount+"/"); ok {
				return filepath.Join(dir, rest)
			}
		}
		return v
	}
	env := []string{"KUBERNETES_SERVICE_HOST=" + k.api.Hostname(), "KUBERNETES_SERVICE_PORT=" + k.api.Port()} // what a kubelet adds
	for _, ev := range ctr.Env {
		val, err := envValue(ctx, k.c, pod, ev)
		if err != nil {
			return err
		}
		env = append(env, ev.Name+"="+local(val))
	}
	args := make([]string, len(ctr.Args))
	for i, a := range ctr.Args {
		args[i] = local(a)
	}
	cmd := exec.Command(k.bin, args...)
	cmd.Env = append(hostEnv(), env...)
	cmd.Dir = local(ctr.WorkingDir)
	out := &testkit.Buffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		return err
	}
	k.mu.Lock()
	k.procs, k.outs, k.ips[pod.Name] = append(k.procs, cmd), append(k.outs, out), ip
	if exited != nil {
		k.coordP = cmd
	} else {
		k.agentsP = append(k.agentsP, cmd)
	}
	k.mu.Unlock()
	go func() {
		err := cmd.Wait()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			if code = ee.ExitCode(); code < 0 {
				code = 137 // killed, as a runtime reports SIGKILL
			}
		}
		k.podExited(pod, code)
		if exited != nil {
			exited(code)
		}
	}()
	if err := probe(ctx, net.JoinHostPort(ip, fmt.Sprint(port))); err != nil {
		return fmt.Errorf("%v\n%s", err, out.String())
	}
	st := k8stest.Ready()
	st.PodIP, st.PodIPs = ip, []corev1.PodIP{{IP: ip}}
	_, err := k8stest.SetStatus(ctx, k.c, pod, st)
	return err
}

// probe waits for addr to accept a connection, as a TCP probe does.
func probe(ctx context.Context, addr string) error {
	deadline := time.Now().Add(time.Minute)
	for {
		conn, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			conn.Close()
			return nil
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return fmt.Errorf("%s never listened: %v", addr, err)
		}
		time.Sleep(50 * time.Millisecond) // the probe's period, bounded by the deadline
	}
}

// podExited writes a pod's end as the kubelet would.
func (k *podKubelet) podExited(pod *corev1.Pod, code int) {
	ctx := context.Background()
	p, err := k.c.CoreV1().Pods(pod.Namespace).Get(ctx, pod.Name, metav1.GetOptions{})
	if err != nil {
		return // deleted
	}
	phase := corev1.PodSucceeded
	if code != 0 {
		phase = corev1.PodFailed
	}
	_, _ = k8stest.SetStatus(ctx, k.c, p, corev1.PodStatus{Phase: phase, PodIP: p.Status.PodIP, ContainerStatuses: []corev1.ContainerStatus{{
		Name: p.Spec.Containers[0].Name, State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: int32(code), Reason: "Completed"}}}}})
}

// finishJob writes the coordinator Job's end as the Job controller would.
func (k *podKubelet) finishJob(job *batchv1.Job, code int) {
	ctx := context.Background()
	j, err := k.c.BatchV1().Jobs(job.Namespace).Get(ctx, job.Name, metav1.GetOptions{})
	if err != nil {
		return
	}
	now := metav1.Now()
	j.Status.StartTime = &now
	if code == 0 {
		j.Status.Succeeded, j.Status.CompletionTime = 1, &now
		j.Status.Conditions = []batchv1.JobCondition{{Type: batchv1.JobSuccessCriteriaMet, Status: corev1.ConditionTrue, LastTransitionTime: now},
			{Type: batchv1.JobComplete, Status: corev1.ConditionTrue, LastTransitionTime: now}}
	} else {
		j.Status.Failed = 1
		j.Status.Conditions = []batchv1.JobCondition{{Type: batchv1.JobFailureTarget, Status: corev1.ConditionTrue, Reason: "BackoffLimitExceeded", LastTransitionTime: now},
			{Type: batchv1.JobFailed, Status: corev1.ConditionTrue, Reason: "BackoffLimitExceeded", Message: "Job has reached the specified backoff limit", LastTransitionTime: now}}
	}
	k.mu.Lock()
	k.finished = now.Rfc3339Copy().Time
	k.mu.Unlock()
	if _, err := k.c.BatchV1().Jobs(job.Namespace).UpdateStatus(ctx, j, metav1.UpdateOptions{}); err != nil {
		k.t.Errorf("writing the Job's status: %v", err)
	}
}

// TestK8sDetachedCoordinatorDies kills an agent's process mid-run, then the
// coordinator's, as an eviction or a node's loss does: the agent is
// counted lost and the run goes on; then the other agents stop their load
// within seconds and exit, and `k8s status` says the coordinator is gone.
func TestK8sDetachedCoordinatorDies(t *testing.T) {
	k := newK8sCluster(t, k8sSetup{binary: true, target: counting})
	srv, c, kc, served := k.srv, k.c, k.kc, &k.served
	test := k8sTest(t, k.target, "2m")
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	kl := newPodKubelet(t, c, k.bin, srv.URL)
	defer kl.stop()
	go kl.play(ctx, 2)
	out := mustRun(t, ctx, 0, nil, append([]string{"k8s", "run", test, "--detach", "--agents", "2", "--image", "example/loadlens:test"}, kc...)...)
	run := regexp.MustCompile(`created run perf/(loadlens-shop-[0-9a-f]{6})`).FindStringSubmatch(out)[1]
	deadline := time.Now().Add(2 * time.Minute)
	for served.Load() < 40 { // two seconds of load: the run is under way
		if time.Now().After(deadline) {
			t.Fatalf("the load never started\n%s", kl.logs())
		}
		time.Sleep(50 * time.Millisecond) // polling the target's count, bounded by the deadline
	}
	kl.mu.Lock()
	coord, agents := kl.coordP, kl.agentsP
	kl.mu.Unlock()
	if err := agents[1].Process.Kill(); err != nil {
		t.Fatal(err)
	}
	deadline = time.Now().Add(time.Minute)
	for {
		var b testkit.Buffer
		_ = Main(ctx, append([]string{"k8s", "status", run}, kc...), &b, &b)
		if strings.Contains(b.String(), "agents: 1 of 2 ready, 1 lost") && strings.Contains(b.String(), ": running") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("k8s status never counted the killed agent lost:\n%s", b.String())
		}
		time.Sleep(200 * time.Millisecond) // polling the status, bounded by the deadline
	}
	agents = agents[:1]
	if err := coord.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	killed := time.Now()
	if code := kl.waitCoordinator(t, 30*time.Second); code != 137 {
		t.Errorf("coordinator exit %d, want 137 (killed)", code)
	}
	for i, a := range agents {
		done := make(chan struct{})
		go func() { _ = a.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			t.Fatalf("agent %d still runs 30s after its coordinator died\n%s", i, kl.logs())
		}
	}
	stopped := time.Since(killed)
	after := served.Load()
	t.Logf("the agents exited %s after the coordinator was killed", stopped.Round(100*time.Millisecond))
	if stopped > 15*time.Second {
		t.Errorf("the agents took %s to stop after losing their coordinator, want within seconds", stopped)
	}
	var errb testkit.Buffer
	code := Main(ctx, append([]string{"k8s", "status", run}, kc...), &errb, &errb)
	if code != 1 || !strings.Contains(errb.String(), "coordinator gone: its Job failed: BackoffLimitExceeded") || !strings.Contains(errb.String(), "agents stop their load within 5s") {
		t.Errorf("k8s status: exit %d\n%s", code, errb.String())
	}
	if served.Load() != after {
		t.Errorf("the target still got requests after the agents exited")
	}
	mustRun(t, ctx, 0, nil, append([]string{"k8s", "delete", run}, kc...)...)
	assertNothingLeft(t, c)
}

// TestK8sManifestApplied applies `k8s manifest`'s output with kubectl
// alone, as a GitOps tool would, and plays the kubelet: the run needs no
// loadlens on the machine, the coordinator's Job ends with the verdict,
// its status ConfigMap says so, and the coordinator adopted every object
// of the run, so that its Job's TTL collects them all.
func TestK8sManifestApplied(t *testing.T) {
	k := newK8sCluster(t, k8sSetup{binary: true, target: counting})
	srv, c, served := k.srv, k.c, &k.served
	test := k8sTest(t, k.target, "3s")
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	// the coordinator's --out: an InfluxDB on 127.0.0.1, which the pod reaches as the host's processes do,
	// with InfluxDB 1.x's credentials in the URL's query
	store, password := newInfluxStore(t), "pw-"+k8s.NewToken()[:12]
	manifest := mustRun(t, ctx, 0, nil, "k8s", "manifest", test, "--agents", "2", "--namespace", "perf", "--image", "example/loadlens:test", "--ttl", "5m",
		"--out", "influxdb="+store.URL+"/write?db=k6&u=ci&p="+password)
	run := regexp.MustCompile(`-l loadlens.dev/run=(loadlens-shop-[0-9a-f]{6})`).FindStringSubmatch(manifest)[1]
	assertManifestHidesOutputs(t, []byte(manifest), password)
	kl := newPodKubelet(t, c, k.bin, srv.URL)
	defer kl.stop()
	go kl.play(ctx, 2)
	cmd := exec.CommandContext(ctx, "kubectl", "--kubeconfig", srv.Kubeconfig, "apply", "-f", "-")
	cmd.Stdin = strings.NewReader(manifest)
	if b, err := cmd.CombinedOutput(); err != nil {
		if _, lerr := exec.LookPath("kubectl"); lerr != nil && os.Getenv("LOADLENS_CI") != "1" {
			t.Skip("kubectl is not installed")
		}
		t.Fatalf("kubectl apply: %v\n%s", err, b)
	}
	if code := kl.waitCoordinator(t, 2*time.Minute); code != 0 {
		t.Fatalf("the coordinator exited %d, want 0 (pass)\n%s", code, kl.logs())
	}
	cm, err := c.CoreV1().ConfigMaps("perf").Get(ctx, k8s.StatusName(run), metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if st := k8s.ParseStatus(cm.Data); st.Phase != k8s.PhaseFinished || st.Verdict != "pass" || st.Requests != served.Load() || st.Requests < 40 {
		t.Errorf("status %+v; the target served %d", st, served.Load())
	}
	if ok, got := store.received("ci:" + password); !ok {
		t.Errorf("the coordinator sent nothing with the URL's credentials to its --out InfluxDB: %s", got)
	}
	assertNoSecretInObjects(t, c, run, password)
	if strings.Contains(kl.logs(), password) {
		t.Errorf("the pods' logs show the --out credential:\n%s", kl.logs())
	}
	job, err := c.BatchV1().Jobs("perf").Get(ctx, k8s.CoordinatorName(run), metav1.GetOptions{})
	if err != nil || !slicesContainsComplete(job) {
		t.Errorf("the coordinator's Job is not complete: %v %+v", err, job.Status)
	}
	checkOwnedAndTTL(t, c, run, 300)
	mustRun(t, ctx, 0, nil, "k8s", "delete", run, "--namespace", "perf", "--kubeconfig", srv.Kubeconfig)
	assertNothingLeft(t, c)
}

func slicesContainsComplete(j *batchv1.Job) bool {
	for _, c := range j.Status.Conditions {
		if c.Type == batchv1.JobComplete && c.Status == corev1.ConditionTrue {
			return true
		}
	}
	return false
}

// checkDashboard: the coordinator's dashboard answers on its pod's port
// 6580 (the Service's target) with the token from the run's Secret, and
// refuses a browser without it.
func checkDashboard(t *testing.T, c kubernetes.Interface, kl *podKubelet, run, kubeconfig string) {
	t.Helper()
	sec, err := c.CoreV1().Secrets("perf").Get(context.Background(), run, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cl, err := k8s.Connect(kubeconfig, "")
	if err != nil {
		t.Fatal(err)
	}
	pod, err := k8s.CoordinatorPod(context.Background(), cl.Client, "perf", run, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	addr, err := kl.reach(context.Background(), pod, k8s.DashboardPort)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		token string
		want  int
	}{{string(sec.Data[k8s.DashboardKey]), http.StatusOK}, {"", http.StatusUnauthorized}} {
		resp, err := http.Get("http://" + addr + "/?token=" + tc.token)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tc.want {
			t.Errorf("dashboard with token %q: %s, want %d", tc.token, resp.Status, tc.want)
		}
	}
}

// hostEnv is this process's environment without loadlens's own variables:
// a pod has only what its spec gives it.
func hostEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "LOADLENS_") {
			env = append(env, kv)
		}
	}
	return env
}
