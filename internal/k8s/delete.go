package k8s

import (
	"context"
	"errors"
	"fmt"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// deleteTimeout bounds the cleanup, which runs after Ctrl-C too.
const deleteTimeout = 30 * time.Second

// Delete deletes the run's Job, its pods, Secret and ConfigMap, and with
// a coordinator in the cluster its Job, status, Service and service
// account too. It names each object rather than relying on the owner
// references alone, so the cleanup holds where the garbage collector is
// slow or absent; objects already gone count as deleted.
func Delete(ctx context.Context, c *Client, o *Objects) error {
	return deleteRun(ctx, c, o.Job.Namespace, o.Job.Name, o.Coordinator != nil)
}

// DeleteRun deletes every object of the run named run, in-cluster or
// not, as the TTL and the garbage collector would: `loadlens k8s delete`.
func DeleteRun(ctx context.Context, c *Client, ns, run string) error {
	return deleteRun(ctx, c, ns, run, true)
}

func deleteRun(ctx context.Context, c *Client, ns, name string, inCluster bool) error {
	ctx, cancel := context.WithTimeout(ctx, deleteTimeout)
	defer cancel()
	bg := metav1.DeletePropagationBackground
	opts := metav1.DeleteOptions{PropagationPolicy: &bg}
	type object struct {
		r    apiResource
		kind string
		name string
	}
	objs := []object{{jobs(), "Job", name}, {secrets(), "Secret", name}, {configMaps(), "ConfigMap", name}}
	if inCluster {
		coord := CoordinatorName(name)
		objs = append([]object{{jobs(), "Job", coord}}, append(objs, object{configMaps(), "ConfigMap", StatusName(name)},
			object{services(), "Service", name}, object{roleBindings(), "RoleBinding", coord},
			object{roles(), "Role", coord}, object{serviceAccounts(), "ServiceAccount", coord})...)
	}
	var errs []error
	for _, o := range objs {
		errs = append(errs, gone(c.delete(ctx, o.r, ns, o.name, opts), o.kind, ns, o.name))
	}
	errs = append(errs, gone(c.deleteAll(ctx, pods(), ns, RunLabel+"="+name), "pods of", ns, name))
	return errors.Join(errs...)
}

func gone(err error, kind, ns, name string) error {
	if err == nil || apierrors.IsNotFound(err) {
		return nil
	}
	return fmt.Errorf("deleting %s %s/%s: %w (delete it with: kubectl delete -n %s job,secret,configmap,service,serviceaccount,role,rolebinding -l %s=%s)", kind, ns, name, err, ns, RunLabel, name)
}
