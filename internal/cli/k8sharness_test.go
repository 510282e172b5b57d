package cli

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/k8s/k8stest"
	authv1 "k8s.io/api/authentication/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// k8sCluster is the set-up of the tests against a real API server: the
// server with namespace perf (its root CA published, as a cluster does),
// the kubeconfig flags to reach it, and, when asked, the loadlens binary
// the pods run, a target on 127.0.0.1 counting what it served, and the
// controllers that clean up (TTL-after-finished, garbage collector).
type k8sCluster struct {
	srv    *k8stest.APIServer
	c      kubernetes.Interface
	kc     []string // --namespace perf --kubeconfig …
	bin    string   // "" unless withBinary
	target string   // the target's URL; "" unless withTarget
	served atomic.Int64
	ctrl   *k8stest.Controllers // nil unless controllers
}

// k8sSetup is what a test needs besides the API server.
type k8sSetup struct {
	binary      bool
	target      http.HandlerFunc // besides counting; nil: no target
	controllers bool             // a real kube-controller-manager's clean-up controllers
}

func newK8sCluster(t *testing.T, want k8sSetup) *k8sCluster {
	t.Helper()
	srv := k8stest.Start(t)
	k := &k8sCluster{srv: srv, c: srv.Client(t), kc: []string{"--namespace", "perf", "--kubeconfig", srv.Kubeconfig}}
	k8stest.Namespace(t, k.c, "perf")
	srv.PublishRootCA(t, k.c, "perf")
	if want.controllers {
		k.ctrl = srv.StartControllers(t)
	}
	if want.binary {
		k.bin = buildLoadlens(t)
	}
	if want.target != nil {
		target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			k.served.Add(1)
			want.target(w, r)
		}))
		t.Cleanup(target.Close)
		k.target = target.URL
	}
	return k
}

// counting is a target that only counts.
func counting(http.ResponseWriter, *http.Request) {}

// waitResumedJob polls for the one Job matching selector until it is
// resumed (what its pods need then exists).
func waitResumedJob(ctx context.Context, c kubernetes.Interface, selector string) (*batchv1.Job, error) {
	for {
		jobs, err := c.BatchV1().Jobs("perf").List(ctx, metav1.ListOptions{LabelSelector: selector})
		if err == nil && len(jobs.Items) == 1 && !*jobs.Items[0].Spec.Suspend {
			return &jobs.Items[0], nil
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("no resumed Job (%s) appeared: %v", selector, err)
		case <-time.After(100 * time.Millisecond): // polling the API server, bounded by ctx
		}
	}
}

// envValue resolves one variable as the kubelet does.
func envValue(ctx context.Context, c kubernetes.Interface, pod *corev1.Pod, ev corev1.EnvVar) (string, error) {
	switch f := ev.ValueFrom; {
	case f == nil:
		return ev.Value, nil
	case f.FieldRef != nil && f.FieldRef.FieldPath == "metadata.namespace":
		return pod.Namespace, nil
	case f.FieldRef != nil:
		key := strings.TrimSuffix(strings.TrimPrefix(f.FieldRef.FieldPath, "metadata.annotations['"), "']")
		return pod.Annotations[key], nil
	case f.SecretKeyRef != nil:
		s, err := c.CoreV1().Secrets(pod.Namespace).Get(ctx, f.SecretKeyRef.Name, metav1.GetOptions{})
		if err != nil {
			return "", err
		}
		return string(s.Data[f.SecretKeyRef.Key]), nil
	}
	return "", fmt.Errorf("env %s: a source the test kubelet does not know", ev.Name)
}

// fillVolumes writes each volume's files into root/<volume>, as the kubelet mounts them.
func fillVolumes(ctx context.Context, c kubernetes.Interface, pod *corev1.Pod, root string) error {
	write := func(dir, path string, data []byte) error {
		p := filepath.Join(root, dir, path)
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			return err
		}
		return os.WriteFile(p, data, 0o400)
	}
	for _, v := range pod.Spec.Volumes {
		if err := os.MkdirAll(filepath.Join(root, v.Name), 0o700); err != nil {
			return err
		}
		switch {
		case v.Secret != nil:
			s, err := c.CoreV1().Secrets(pod.Namespace).Get(ctx, v.Secret.SecretName, metav1.GetOptions{})
			if err != nil {
				return err
			}
			for _, it := range v.Secret.Items {
				if err := write(v.Name, it.Path, s.Data[it.Key]); err != nil {
					return err
				}
			}
		case v.ConfigMap != nil:
			cm, err := c.CoreV1().ConfigMaps(pod.Namespace).Get(ctx, v.ConfigMap.Name, metav1.GetOptions{})
			if err != nil {
				return err
			}
			for _, it := range v.ConfigMap.Items {
				if err := write(v.Name, it.Path, []byte(cm.Data[it.Key])); err != nil {
					return err
				}
			}
		case v.Projected != nil:
			if err := project(ctx, c, pod, v, write); err != nil {
				return err
			}
		}
	}
	return nil
}

// project fills a projected volume: a bound token for the pod's service
// account (the kubelet's TokenRequest), a ConfigMap's keys, the namespace.
func project(ctx context.Context, c kubernetes.Interface, pod *corev1.Pod, v corev1.Volume, write func(dir, path string, data []byte) error) error {
	for _, src := range v.Projected.Sources {
		switch {
		case src.ServiceAccountToken != nil:
			tr, err := c.CoreV1().ServiceAccounts(pod.Namespace).CreateToken(ctx, pod.Spec.ServiceAccountName, &authv1.TokenRequest{
				Spec: authv1.TokenRequestSpec{ExpirationSeconds: src.ServiceAccountToken.ExpirationSeconds,
					BoundObjectRef: &authv1.BoundObjectReference{Kind: "Pod", APIVersion: "v1", Name: pod.Name, UID: pod.UID}}}, metav1.CreateOptions{})
			if err != nil {
				return fmt.Errorf("TokenRequest for %s: %w", pod.Spec.ServiceAccountName, err)
			}
			if err := write(v.Name, src.ServiceAccountToken.Path, []byte(tr.Status.Token)); err != nil {
				return err
			}
		case src.ConfigMap != nil:
			cm, err := c.CoreV1().ConfigMaps(pod.Namespace).Get(ctx, src.ConfigMap.Name, metav1.GetOptions{})
			if err != nil {
				return err
			}
			for _, it := range src.ConfigMap.Items {
				if err := write(v.Name, it.Path, []byte(cm.Data[it.Key])); err != nil {
					return err
				}
			}
		case src.DownwardAPI != nil:
			for _, it := range src.DownwardAPI.Items {
				if err := write(v.Name, it.Path, []byte(pod.Namespace)); err != nil {
					return err
				}
			}
		}
	}
	return nil
}
