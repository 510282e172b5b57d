package cli

import (
	"context"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/k8s"
	"github.com/loadlens/loadlens/internal/k8s/k8stest"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TestK8sDetachedRunCollected leaves a detached run's clean-up to a real
// kube-controller-manager running only its TTL-after-finished controller
// and garbage collector: nothing in the test deletes (no `k8s delete`).
// A run whose coordinator's Job finished is gone, pods included, once its
// TTL has passed; a run whose coordinator's Job is deleted as kubectl does
// (background cascade) takes every object it owns with it.
func TestK8sDetachedRunCollected(t *testing.T) {
	k := newK8sCluster(t, k8sSetup{binary: true, target: counting, controllers: true})
	test := k8sTest(t, k.target, "2s")
	for _, tc := range []struct {
		name      string
		ttl       int32
		end       func(t *testing.T, ctx context.Context, run string, kl *podKubelet) (pods []string, ended time.Time)
		notBefore time.Duration // how long after its end the run may go
	}{
		{"a finished run is gone after its TTL", 2, k.finishRun, 2 * time.Second},
		{"deleting the coordinator's Job takes what it owns", 600, k.deleteCoordinator, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
			defer cancel()
			kl := newPodKubelet(t, k.c, k.bin, k.srv.URL)
			defer kl.stop()
			out := mustRun(t, ctx, 0, nil, append([]string{"k8s", "run", test, "--detach", "--agents", "2", "--image", "example/loadlens:test",
				"--ttl", strconv.Itoa(int(tc.ttl)) + "s", "--keep", "0s"}, k.kc...)...)
			m := regexp.MustCompile(`created run perf/(loadlens-shop-[0-9a-f]{6})`).FindStringSubmatch(out)
			if m == nil {
				t.Fatalf("k8s run --detach said:\n%s", out)
			}
			run := m[1]
			// the run's 2s of load come first: its objects exist, owned and with their TTL
			checkOwnedAndTTL(t, k.c, run, tc.ttl)
			pods, ended := tc.end(t, ctx, run, kl)
			if len(pods) != 3 {
				t.Fatalf("pods %v, want the coordinator's and 2 agents'", pods)
			}
			k.waitCollected(t, run, pods, 2*time.Minute)
			took := time.Since(ended)
			t.Logf("the run's objects were gone %s after its end", took.Round(100*time.Millisecond))
			if took < tc.notBefore {
				t.Errorf("the run was deleted %s after it finished, before its TTL of %ds", took, tc.ttl)
			}
		})
	}
}

// finishRun plays the kubelet for both Jobs until the coordinator exits
// with the verdict and its Job is finished, as the Job controller marks it;
// the run ended at the finish time written in the Job, which its TTL counts from.
func (k *k8sCluster) finishRun(t *testing.T, ctx context.Context, _ string, kl *podKubelet) ([]string, time.Time) {
	t.Helper()
	go kl.play(ctx, 2)
	if code := kl.waitCoordinator(t, 2*time.Minute); code != 0 {
		t.Fatalf("the coordinator exited %d, want 0 (pass)\n%s", code, kl.logs())
	}
	kl.mu.Lock()
	defer kl.mu.Unlock()
	return kl.podNames(), kl.finished
}

// deleteCoordinator creates the pods of both Jobs, as the Job controller
// does (none runs), then deletes the coordinator's Job as `kubectl delete
// job` does: the garbage collector alone removes its dependents.
func (k *k8sCluster) deleteCoordinator(t *testing.T, ctx context.Context, run string, _ *podKubelet) ([]string, time.Time) {
	t.Helper()
	var pods []string
	for name, n := range map[string]int{k8s.CoordinatorName(run): 1, run: 2} {
		job, err := k.c.BatchV1().Jobs("perf").Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for i := range n {
			p, err := k8stest.CreatePod(ctx, k.c, job, i)
			if err != nil {
				t.Fatal(err)
			}
			pods = append(pods, p.Name)
		}
	}
	bg, ended := metav1.DeletePropagationBackground, time.Now()
	if err := k.c.BatchV1().Jobs("perf").Delete(ctx, k8s.CoordinatorName(run), metav1.DeleteOptions{PropagationPolicy: &bg}); err != nil {
		t.Fatal(err)
	}
	return pods, ended
}

// waitCollected polls until no object of run is left and none of pods
// exists, within the bound.
func (k *k8sCluster) waitCollected(t *testing.T, run string, pods []string, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		left, err := leftBehind(k.c, k8s.RunLabel+"="+run)
		if err == nil && left == "" {
			left = podsLeft(t, k, pods)
		}
		if err == nil && left == "" {
			return
		}
		if err := k.ctrl.Err(); err != nil {
			t.Fatal(err)
		}
		if time.Now().After(deadline) {
			t.Fatalf("still there %s after the run ended: %s (%v)\nkube-controller-manager's log ends:\n%s", within, left, err, k.ctrl.Log())
		}
		time.Sleep(200 * time.Millisecond) // polling the API server, bounded by the deadline
	}
}

// podsLeft names the pods of pods that still exist.
func podsLeft(t *testing.T, k *k8sCluster, pods []string) string {
	t.Helper()
	var left []string
	for _, p := range pods {
		if _, err := k.c.CoreV1().Pods("perf").Get(context.Background(), p, metav1.GetOptions{}); !apierrors.IsNotFound(err) {
			left = append(left, p)
		}
	}
	if len(left) == 0 {
		return ""
	}
	return "pods " + strings.Join(left, ", ")
}

// podNames are the pods the kubelet started; k.mu is held.
func (k *podKubelet) podNames() []string {
	var names []string
	for name := range k.ips {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}
