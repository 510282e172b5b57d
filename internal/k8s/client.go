package k8s

import (
	"context"
	"encoding/json"

	"github.com/loadlens/loadlens/internal/k8s/kapi"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
)

// Client makes the few API calls a run needs, through client-go's dynamic
// client and kapi's own types, converted through JSON: the typed clientset
// links every API group in (a 75 MB binary, against 49 MB so, 39 MB
// without k8s), and k8s.io/api's types alone were 2.3 MB of code.
type Client struct {
	dyn dynamic.Interface
}

// NewClient returns a Client over a dynamic client.
func NewClient(dyn dynamic.Interface) *Client { return &Client{dyn: dyn} }

// The resources a run touches.
func jobs() schema.GroupVersionResource {
	return schema.GroupVersionResource{Group: "batch", Version: "v1", Resource: "jobs"}
}
func secrets() schema.GroupVersionResource {
	return schema.GroupVersionResource{Version: "v1", Resource: "secrets"}
}
func configMaps() schema.GroupVersionResource {
	return schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}
}
func pods() schema.GroupVersionResource {
	return schema.GroupVersionResource{Version: "v1", Resource: "pods"}
}

func services() schema.GroupVersionResource {
	return schema.GroupVersionResource{Version: "v1", Resource: "services"}
}
func serviceAccounts() schema.GroupVersionResource {
	return schema.GroupVersionResource{Version: "v1", Resource: "serviceaccounts"}
}
func roles() schema.GroupVersionResource {
	return schema.GroupVersionResource{Group: "rbac.authorization.k8s.io", Version: "v1", Resource: "roles"}
}
func roleBindings() schema.GroupVersionResource {
	return schema.GroupVersionResource{Group: "rbac.authorization.k8s.io", Version: "v1", Resource: "rolebindings"}
}

// patch merge-patches one object.
func (c *Client) patch(ctx context.Context, r schema.GroupVersionResource, ns, name string, patch []byte) error {
	_, err := c.dyn.Resource(r).Namespace(ns).Patch(ctx, name, types.MergePatchType, patch, metav1.PatchOptions{FieldManager: "loadlens"})
	return err
}

// get reads one object into out.
func (c *Client) get(ctx context.Context, r schema.GroupVersionResource, ns, name string, out any) error {
	u, err := c.dyn.Resource(r).Namespace(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	return fromUnstructured(u, out)
}

// create creates obj and decodes the server's copy into out.
func (c *Client) create(ctx context.Context, r schema.GroupVersionResource, ns string, obj, out any) error {
	u, err := toUnstructured(obj)
	if err != nil {
		return err
	}
	if u, err = c.dyn.Resource(r).Namespace(ns).Create(ctx, u, metav1.CreateOptions{FieldManager: "loadlens"}); err != nil {
		return err
	}
	return fromUnstructured(u, out)
}

func (c *Client) getJob(ctx context.Context, ns, name string) (*kapi.Job, error) {
	var j kapi.Job
	return &j, c.get(ctx, jobs(), ns, name, &j)
}

func (c *Client) patchJob(ctx context.Context, ns, name string, patch []byte) (*kapi.Job, error) {
	u, err := c.dyn.Resource(jobs()).Namespace(ns).Patch(ctx, name, types.MergePatchType, patch, metav1.PatchOptions{FieldManager: "loadlens"})
	if err != nil {
		return nil, err
	}
	var j kapi.Job
	return &j, fromUnstructured(u, &j)
}

func (c *Client) listPods(ctx context.Context, ns, selector string) ([]kapi.Pod, error) {
	l, err := c.dyn.Resource(pods()).Namespace(ns).List(ctx, metav1.ListOptions{LabelSelector: selector})
	if err != nil {
		return nil, err
	}
	out := make([]kapi.Pod, len(l.Items))
	for i := range l.Items {
		if err := fromUnstructured(&l.Items[i], &out[i]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (c *Client) delete(ctx context.Context, r schema.GroupVersionResource, ns, name string, opts metav1.DeleteOptions) error {
	return c.dyn.Resource(r).Namespace(ns).Delete(ctx, name, opts)
}

func (c *Client) deleteAll(ctx context.Context, r schema.GroupVersionResource, ns, selector string) error {
	return c.dyn.Resource(r).Namespace(ns).DeleteCollection(ctx, metav1.DeleteOptions{}, metav1.ListOptions{LabelSelector: selector})
}

// toUnstructured is obj as the dynamic client sends it: its JSON, decoded
// as the API machinery decodes JSON (whole numbers as int64).
func toUnstructured(obj any) (*unstructured.Unstructured, error) {
	b, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	u := &unstructured.Unstructured{}
	return u, u.UnmarshalJSON(b)
}

// fromUnstructured decodes an object the dynamic client read into out.
func fromUnstructured(u *unstructured.Unstructured, out any) error {
	b, err := u.MarshalJSON()
	if err != nil {
		return err
	}
	return json.Unmarshal(b, out)
}
