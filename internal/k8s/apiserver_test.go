package k8s_test

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/k8s"
	"github.com/loadlens/loadlens/internal/k8s/k8stest"
	"github.com/loadlens/loadlens/internal/testkit"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// TestAgainstAPIServer creates, follows and deletes a run's objects on a
// real kube-apiserver (no kubelet: the test writes the pods' states).
func TestAgainstAPIServer(t *testing.T) {
	srv := k8stest.Start(t)
	c := srv.Client(t)
	k8stest.Namespace(t, c, "perf")
	ctx := context.Background()
	cl, err := k8s.Connect(srv.Kubeconfig, "")
	if err != nil {
		t.Fatal(err)
	}
	lc := cl.Client

	t.Run("the Job owns the rest and Delete leaves nothing", func(t *testing.T) {
		o := build(t, 2)
		if err := k8s.Create(ctx, lc, o); err != nil {
			t.Fatal(err)
		}
		job, err := c.BatchV1().Jobs("perf").Get(ctx, o.Job.Name, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if *job.Spec.Suspend {
			t.Errorf("the Job stays suspended after its Secret and ConfigMap exist")
		}
		sec, err := c.CoreV1().Secrets("perf").Get(ctx, o.Job.Name, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		cm, err := c.CoreV1().ConfigMaps("perf").Get(ctx, o.Job.Name, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for _, refs := range [][]metav1.OwnerReference{sec.OwnerReferences, cm.OwnerReferences} {
			if len(refs) != 1 || refs[0].UID != job.UID || refs[0].Kind != "Job" {
				t.Errorf("owner references %+v, want the Job %s", refs, job.UID)
			}
		}
		if _, err := k8stest.CreatePod(ctx, c, job, 0); err != nil {
			t.Fatal(err)
		}
		if err := k8s.Delete(ctx, lc, o); err != nil {
			t.Fatal(err)
		}
		assertGone(t, c, o.Job.Name)
		if err := k8s.Delete(ctx, lc, o); err != nil {
			t.Errorf("deleting twice: %v (objects already gone count as deleted)", err)
		}
	})

	t.Run("pods are followed until ready, with the reason they wait", func(t *testing.T) {
		o := build(t, 2)
		if err := k8s.Create(ctx, lc, o); err != nil {
			t.Fatal(err)
		}
		defer k8s.Delete(ctx, lc, o)
		var log testkit.Buffer
		type result struct {
			agents []k8s.Agent
			err    error
		}
		done := make(chan result, 1)
		wctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
		defer cancel()
		var mu sync.Mutex
		counts := map[int]bool{}
		go func() {
			a, err := k8s.WaitAgents(wctx, lc, "perf", o.Job.Name, 2, &log, func(n int) { mu.Lock(); counts[n] = true; mu.Unlock() })
			done <- result{a, err}
		}()
		p0 := pod(t, c, o, 0, k8stest.Ready())
		p1 := pod(t, c, o, 1, corev1.PodStatus{Phase: corev1.PodPending, Conditions: []corev1.PodCondition{{Type: corev1.PodScheduled,
			Status: corev1.ConditionFalse, Reason: "Unschedulable", Message: "0/3 nodes are available: 3 Insufficient cpu."}}})
		waitLog(t, &log, "agent 1 (pod "+p1.Name+"): pending: Unschedulable: 0/3 nodes are available: 3 Insufficient cpu.")
		if _, err := k8stest.SetStatus(ctx, c, p1, k8stest.Ready()); err != nil {
			t.Fatal(err)
		}
		r := <-done
		if r.err != nil {
			t.Fatal(r.err)
		}
		if len(r.agents) != 2 || r.agents[0] != (k8s.Agent{Index: 0, Pod: p0.Name}) || r.agents[1] != (k8s.Agent{Index: 1, Pod: p1.Name}) {
			t.Errorf("agents %+v", r.agents)
		}
		if !strings.Contains(log.String(), "agent 0 (pod "+p0.Name+"): ready") {
			t.Errorf("log:\n%s", log.String())
		}
		mu.Lock()
		if !counts[1] || !counts[2] {
			t.Errorf("ready counts heard %v, want 1 (while agent 1 was unschedulable) and 2", counts)
		}
		mu.Unlock()
	})

	t.Run("a failed pod is reported with Kubernetes's reason", func(t *testing.T) {
		o := build(t, 2)
		if err := k8s.Create(ctx, lc, o); err != nil {
			t.Fatal(err)
		}
		defer k8s.Delete(ctx, lc, o)
		pod(t, c, o, 0, corev1.PodStatus{Phase: corev1.PodSucceeded})
		p1 := pod(t, c, o, 1, corev1.PodStatus{Phase: corev1.PodFailed, ContainerStatuses: []corev1.ContainerStatus{{Name: "agent",
			State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{Reason: "OOMKilled", ExitCode: 137}}}}})
		var b bytes.Buffer
		n, err := k8s.ReportFailed(ctx, lc, o.Job, &b)
		if err != nil || n != 1 || b.String() != "agent 1 (pod "+p1.Name+"): failed: OOMKilled, exit code 137\n" {
			t.Errorf("ReportFailed = %d, %v, wrote %q", n, err, b.String())
		}
	})

	t.Run("a pod that cannot pull its image stops the wait with the reason", func(t *testing.T) {
		o := build(t, 1)
		if err := k8s.Create(ctx, lc, o); err != nil {
			t.Fatal(err)
		}
		defer k8s.Delete(ctx, lc, o)
		pod(t, c, o, 0, corev1.PodStatus{Phase: corev1.PodPending, ContainerStatuses: []corev1.ContainerStatus{{Name: "agent",
			State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "ImagePullBackOff", Message: `Back-off pulling image "example/loadlens:1"`}}}}})
		wctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
		defer cancel()
		_, err := k8s.WaitReady(wctx, lc, o.Job, 1, &bytes.Buffer{})
		if err == nil || !strings.Contains(err.Error(), `cannot start: waiting: ImagePullBackOff: Back-off pulling image "example/loadlens:1"`) {
			t.Fatalf("err %v", err)
		}
	})
}

func build(t *testing.T, agents int) *k8s.Objects {
	t.Helper()
	o, err := k8s.Build(&k8s.Spec{Name: k8s.NewName("shop"), Namespace: "perf", Image: "example/loadlens:1", Agents: agents,
		CPU: "500m", Memory: "256Mi", Token: k8s.NewToken(), Test: k8s.File{Name: "shop.yaml", Data: []byte("name: shop\n")},
		Deadline: 10 * time.Minute, TTL: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// pod plays the Job controller and kubelet for one index.
func pod(t *testing.T, c kubernetes.Interface, o *k8s.Objects, index int, st corev1.PodStatus) *corev1.Pod {
	t.Helper()
	p, err := k8stest.CreatePod(context.Background(), c, o.Job, index)
	if err != nil {
		t.Fatal(err)
	}
	if p, err = k8stest.SetStatus(context.Background(), c, p, st); err != nil {
		t.Fatal(err)
	}
	return p
}

func assertGone(t *testing.T, c kubernetes.Interface, name string) {
	t.Helper()
	ctx := context.Background()
	for kind, err := range map[string]error{
		"Job":       get(c.BatchV1().Jobs("perf").Get(ctx, name, metav1.GetOptions{})),
		"Secret":    get(c.CoreV1().Secrets("perf").Get(ctx, name, metav1.GetOptions{})),
		"ConfigMap": get(c.CoreV1().ConfigMaps("perf").Get(ctx, name, metav1.GetOptions{})),
	} {
		if !apierrors.IsNotFound(err) {
			t.Errorf("%s %s: %v, want not found", kind, name, err)
		}
	}
	pods, err := c.CoreV1().Pods("perf").List(ctx, metav1.ListOptions{LabelSelector: k8s.RunLabel + "=" + name})
	if err != nil || len(pods.Items) != 0 {
		t.Errorf("pods left: %d (%v)", len(pods.Items), err)
	}
}

func get[T any](_ T, err error) error { return err }

func waitLog(t *testing.T, b *testkit.Buffer, want string) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for !strings.Contains(b.String(), want) {
		if time.Now().After(deadline) {
			t.Fatalf("log never said %q:\n%s", want, b.String())
		}
		time.Sleep(50 * time.Millisecond) // polling a condition, bounded by the deadline
	}
}
