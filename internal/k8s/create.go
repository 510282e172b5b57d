package k8s

import (
	"context"
	"fmt"

	"github.com/loadlens/loadlens/internal/k8s/kapi"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Create creates o in its namespace. The Job goes first, suspended, so
// that it can own the Secret and ConfigMap (deleting the Job, or a
// finished Job's TTL, collects them); it is resumed once they exist, so
// no pod starts without its token. On error it deletes what it created.
func Create(ctx context.Context, c *Client, o *Objects) (err error) {
	ns := o.Job.Namespace
	o.Job.Spec.Suspend = ptr(true)
	job := &kapi.Job{}
	if err := c.create(ctx, jobs(), ns, o.Job, job); err != nil {
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
	sec, cm := &kapi.Secret{}, &kapi.ConfigMap{}
	if err = c.create(ctx, secrets(), ns, o.Secret, sec); err != nil {
		return fmt.Errorf("creating Secret %s/%s: %w", ns, job.Name, err)
	}
	o.Secret = sec
	if err = c.create(ctx, configMaps(), ns, o.ConfigMap, cm); err != nil {
		return fmt.Errorf("creating ConfigMap %s/%s: %w", ns, job.Name, err)
	}
	o.ConfigMap = cm
	if o.Job, err = c.patchJob(ctx, ns, job.Name, []byte(`{"spec":{"suspend":false}}`)); err != nil {
		return fmt.Errorf("starting Job %s/%s: %w", ns, job.Name, err)
	}
	return nil
}
