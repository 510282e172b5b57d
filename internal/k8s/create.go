package k8s

import (
	"context"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
)

// Create creates o in its namespace. The Job goes first, suspended, so
// that it can own the Secret and ConfigMap (deleting the Job, or a
// finished Job's TTL, collects them); it is resumed once they exist, so
// no pod starts without its token. On error it deletes what it created.
func Create(ctx context.Context, c kubernetes.Interface, o *Objects) (err error) {
	ns := o.Job.Namespace
	o.Job.Spec.Suspend = ptr(true)
	job, err := c.BatchV1().Jobs(ns).Create(ctx, o.Job, metav1.CreateOptions{FieldManager: "loadlens"})
	if err != nil {
		return fmt.Errorf("creating Job %s/%s: %w", ns, o.Job.Name, err)
	}
	o.Job = job
	defer func() {
		if err != nil {
			_ = Delete(context.WithoutCancel(ctx), c, o)
		}
	}()
	owner := []metav1.OwnerReference{{
		APIVersion: "batch/v1", Kind: "Job", Name: job.Name, UID: job.UID,
		BlockOwnerDeletion: ptr(true),
	}}
	o.Secret.OwnerReferences = owner
	o.ConfigMap.OwnerReferences = owner
	if o.Secret, err = c.CoreV1().Secrets(ns).Create(ctx, o.Secret, metav1.CreateOptions{FieldManager: "loadlens"}); err != nil {
		return fmt.Errorf("creating Secret %s/%s: %w", ns, job.Name, err)
	}
	if o.ConfigMap, err = c.CoreV1().ConfigMaps(ns).Create(ctx, o.ConfigMap, metav1.CreateOptions{FieldManager: "loadlens"}); err != nil {
		return fmt.Errorf("creating ConfigMap %s/%s: %w", ns, job.Name, err)
	}
	resume := []byte(`{"spec":{"suspend":false}}`)
	if o.Job, err = c.BatchV1().Jobs(ns).Patch(ctx, job.Name, types.MergePatchType, resume, metav1.PatchOptions{FieldManager: "loadlens"}); err != nil {
		return fmt.Errorf("starting Job %s/%s: %w", ns, job.Name, err)
	}
	return nil
}
