package k8s

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Adopt makes the coordinator's Job the owner of every other object of
// run, as CreateInCluster does when it creates them: a manifest cannot
// name a UID, so the coordinator of an applied manifest adopts its run
// once it starts, and its Job's TTL then collects the whole run.
func Adopt(ctx context.Context, c *Client, ns, run string) error {
	coord, err := c.getJob(ctx, ns, CoordinatorName(run))
	if err != nil {
		return fmt.Errorf("reading the coordinator's Job: %w", err)
	}
	patch, err := json.Marshal(map[string]any{"metadata": map[string]any{"ownerReferences": []metav1.OwnerReference{{
		APIVersion: "batch/v1", Kind: "Job", Name: coord.Name, UID: coord.UID}}}})
	if err != nil {
		return err
	}
	var errs []error
	for _, o := range []struct {
		r    apiResource
		name string
	}{
		{jobs(), run}, {secrets(), run}, {configMaps(), run}, {configMaps(), StatusName(run)}, {services(), run},
		{roleBindings(), CoordinatorName(run)}, {roles(), CoordinatorName(run)}, {serviceAccounts(), CoordinatorName(run)},
	} {
		if err := c.patch(ctx, o.r, ns, o.name, patch); err != nil {
			errs = append(errs, fmt.Errorf("adopting %s %s: %w", o.r.name, o.name, err))
		}
	}
	return errors.Join(errs...)
}
