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

// Delete deletes the run's Job, its pods, Secret and ConfigMap. It names
// each object rather than relying on the owner references alone, so the
// cleanup holds where the garbage collector is slow or absent; objects
// already gone count as deleted.
func Delete(ctx context.Context, c *Client, o *Objects) error {
	ctx, cancel := context.WithTimeout(ctx, deleteTimeout)
	defer cancel()
	ns, name := o.Job.Namespace, o.Job.Name
	bg := metav1.DeletePropagationBackground
	opts := metav1.DeleteOptions{PropagationPolicy: &bg}
	errs := []error{
		gone(c.delete(ctx, jobs(), ns, name, opts), "Job", ns, name),
		gone(c.deleteAll(ctx, pods(), ns, RunLabel+"="+name), "pods of", ns, name),
		gone(c.delete(ctx, secrets(), ns, name, metav1.DeleteOptions{}), "Secret", ns, name),
		gone(c.delete(ctx, configMaps(), ns, name, metav1.DeleteOptions{}), "ConfigMap", ns, name),
	}
	return errors.Join(errs...)
}

func gone(err error, kind, ns, name string) error {
	if err == nil || apierrors.IsNotFound(err) {
		return nil
	}
	return fmt.Errorf("deleting %s %s/%s: %w (delete it with: kubectl delete -n %s job,secret,configmap -l %s=%s)", kind, ns, name, err, ns, RunLabel, name)
}
