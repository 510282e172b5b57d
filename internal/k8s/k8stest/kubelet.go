package k8stest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
)

// Client returns a client of the API server.
func (s *APIServer) Client(t *testing.T) kubernetes.Interface {
	t.Helper()
	cfg, err := clientcmd.BuildConfigFromFlags("", s.Kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	c, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Namespace creates a namespace with the default service account that a
// controller manager would have made, which pods need to be admitted.
func Namespace(t *testing.T, c kubernetes.Interface, name string) {
	t.Helper()
	ctx := context.Background()
	if _, err := c.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	sa := &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: "default"}}
	if _, err := c.CoreV1().ServiceAccounts(name).Create(ctx, sa, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
}

// CreatePod creates the pod of job's completion index as the Job
// controller does: the template, the index annotation, the job-name label,
// the Job as its controlling owner (so the garbage collector deletes it
// with its Job). It is not bound to a node, so deleting it takes effect at
// once. job is a Job as the API server returned it (with its UID), of any
// Go type (client-go's, or loadlens's kapi.Job), read through its JSON.
func CreatePod(ctx context.Context, c kubernetes.Interface, anyJob any, index int) (*corev1.Pod, error) {
	job, err := AsJob(anyJob)
	if err != nil {
		return nil, err
	}
	p := &corev1.Pod{
		ObjectMeta: *job.Spec.Template.ObjectMeta.DeepCopy(),
		Spec:       *job.Spec.Template.Spec.DeepCopy(),
	}
	p.Name = fmt.Sprintf("%s-%d-test", job.Name, index)
	p.Namespace = job.Namespace
	if p.Annotations == nil {
		p.Annotations = map[string]string{}
	}
	p.Annotations["batch.kubernetes.io/job-completion-index"] = strconv.Itoa(index)
	if p.Labels == nil {
		p.Labels = map[string]string{}
	}
	p.Labels["batch.kubernetes.io/job-name"] = job.Name
	p.OwnerReferences = []metav1.OwnerReference{{APIVersion: "batch/v1", Kind: "Job", Name: job.Name, UID: job.UID,
		Controller: ptr(true), BlockOwnerDeletion: ptr(true)}}
	return c.CoreV1().Pods(job.Namespace).Create(ctx, p, metav1.CreateOptions{})
}

// AsJob is job, of any Go type, as client-go's batch/v1 Job.
func AsJob(job any) (*batchv1.Job, error) {
	if j, ok := job.(*batchv1.Job); ok {
		return j, nil
	}
	b, err := json.Marshal(job)
	if err != nil {
		return nil, err
	}
	var j batchv1.Job
	return &j, json.Unmarshal(b, &j)
}

// SetStatus writes a pod's status as a kubelet (or the scheduler) would.
func SetStatus(ctx context.Context, c kubernetes.Interface, p *corev1.Pod, st corev1.PodStatus) (*corev1.Pod, error) {
	p = p.DeepCopy()
	p.Status = st
	return c.CoreV1().Pods(p.Namespace).UpdateStatus(ctx, p, metav1.UpdateOptions{})
}

// Ready is the status of a pod whose agent listens.
func Ready() corev1.PodStatus {
	return corev1.PodStatus{
		Phase: corev1.PodRunning,
		Conditions: []corev1.PodCondition{
			{Type: corev1.PodScheduled, Status: corev1.ConditionTrue},
			{Type: corev1.PodReady, Status: corev1.ConditionTrue},
		},
		ContainerStatuses: []corev1.ContainerStatus{{Name: "agent", Ready: true,
			State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{}}}},
	}
}

// PublishRootCA creates the kube-root-ca.crt ConfigMap of namespace ns, as
// the controller manager's root CA publisher does: the CA a pod trusts the
// API server with.
func (s *APIServer) PublishRootCA(t *testing.T, c kubernetes.Interface, ns string) {
	t.Helper()
	ca, err := os.ReadFile(s.CertFile)
	if err != nil {
		t.Fatal(err)
	}
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "kube-root-ca.crt"}, Data: map[string]string{"ca.crt": string(ca)}}
	if _, err := c.CoreV1().ConfigMaps(ns).Create(context.Background(), cm, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
}

func ptr[T any](v T) *T { return &v }
