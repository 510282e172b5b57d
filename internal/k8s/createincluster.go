package k8s

import (
	"context"
	"fmt"

	"github.com/loadlens/loadlens/internal/k8s/kapi"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// CreateInCluster creates a whole in-cluster run. The coordinator's Job
// goes first, suspended, so that it owns every other object (its TTL, or
// deleting it, collects the run: agents, Secret, ConfigMaps, Service,
// service account and Role); it is resumed last, once everything it needs
// exists. On error it deletes what it created.
func CreateInCluster(ctx context.Context, c *Client, o *Objects) (err error) {
	if o.Coordinator == nil {
		return fmt.Errorf("the run has no coordinator (Spec.InCluster)")
	}
	ns := o.Job.Namespace
	o.Coordinator.Spec.Suspend = ptr(true)
	coord := &kapi.Job{}
	if err := c.create(ctx, jobs(), ns, o.Coordinator, coord); err != nil {
		return fmt.Errorf("creating Job %s/%s: %w", ns, o.Coordinator.Name, err)
	}
	o.Coordinator = coord
	defer func() {
		if err != nil {
			_ = Delete(context.WithoutCancel(ctx), c, o)
		}
	}()
	owner := []metav1.OwnerReference{{APIVersion: "batch/v1", Kind: "Job", Name: coord.Name, UID: coord.UID, BlockOwnerDeletion: ptr(true)}}
	for _, it := range []struct {
		r   apiResource
		obj interface {
			metav1.Object
			GetObjectKind() schema.ObjectKind
		}
	}{
		{serviceAccounts(), o.Account}, {roles(), o.Role}, {roleBindings(), o.Binding}, {secrets(), o.Secret},
		{configMaps(), o.ConfigMap}, {configMaps(), o.Status}, {services(), o.Service}, {jobs(), o.Job},
	} {
		it.obj.SetOwnerReferences(owner)
		if err = c.create(ctx, it.r, ns, it.obj, it.obj); err != nil {
			return fmt.Errorf("creating %s %s/%s: %w", it.obj.GetObjectKind().GroupVersionKind().Kind, ns, it.obj.GetName(), err)
		}
	}
	if o.Coordinator, err = c.patchJob(ctx, ns, coord.Name, []byte(`{"spec":{"suspend":false}}`)); err != nil {
		return fmt.Errorf("starting Job %s/%s: %w", ns, coord.Name, err)
	}
	return nil
}
