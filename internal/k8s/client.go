package k8s

import (
	"context"
	"encoding/json"

	"github.com/loadlens/loadlens/internal/k8s/kapi"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/rest"
)

// Client makes the few API calls a run needs, through client-go's REST
// client with kapi's own types as JSON: the typed clientset links every
// API group in (a 75 MB binary, against 49 MB so, 39 MB without k8s),
// k8s.io/api's types alone were 2.3 MB of code, and the dynamic client
// adds its unstructured conversions for nothing JSON does not do.
type Client struct {
	rc *rest.RESTClient
}

// newClient returns a Client of the API server cfg names.
func newClient(cfg *rest.Config) (*Client, error) {
	cfg = rest.CopyConfig(cfg)
	cfg.ContentType = "application/json"
	cfg.AcceptContentTypes = "application/json"
	cfg.NegotiatedSerializer = statusCodecs
	rc, err := rest.UnversionedRESTClientFor(cfg)
	if err != nil {
		return nil, err
	}
	return &Client{rc: rc}, nil
}

// statusCodecs decode the one typed object a response holds for us: the
// metav1.Status of an error, which the REST client makes a StatusError
// of (so apierrors.IsNotFound and the server's message work).
var statusCodecs = func() runtime.NegotiatedSerializer {
	s := runtime.NewScheme()
	metav1.AddToGroupVersion(s, schema.GroupVersion{Version: "v1"})
	return serializer.NewCodecFactory(s).WithoutConversion()
}()

// resource is one kind of object a run touches, and the path of its collection.
type apiResource struct{ group, name string }

// The resources a run touches.
func jobs() apiResource            { return apiResource{"batch", "jobs"} }
func secrets() apiResource         { return apiResource{"", "secrets"} }
func configMaps() apiResource      { return apiResource{"", "configmaps"} }
func pods() apiResource            { return apiResource{"", "pods"} }
func services() apiResource        { return apiResource{"", "services"} }
func serviceAccounts() apiResource { return apiResource{"", "serviceaccounts"} }
func roles() apiResource           { return apiResource{"rbac.authorization.k8s.io", "roles"} }
func roleBindings() apiResource    { return apiResource{"rbac.authorization.k8s.io", "rolebindings"} }

// path is the URL path of r's objects in ns, and of the one named name.
func (r apiResource) path(ns string, name ...string) []string {
	p := []string{"/api", "v1"}
	if r.group != "" {
		p = []string{"/apis", r.group, "v1"}
	}
	return append(append(p, "namespaces", ns, r.name), name...)
}

// do sends req and decodes the object it answers into out (unless nil).
func do(ctx context.Context, req *rest.Request, out any) error {
	res := req.Do(ctx)
	if err := res.Error(); err != nil {
		return err
	}
	body, err := res.Raw()
	if err != nil || out == nil {
		return err
	}
	return json.Unmarshal(body, out)
}

// patch merge-patches one object.
func (c *Client) patch(ctx context.Context, r apiResource, ns, name string, patch []byte) error {
	return c.patchInto(ctx, r, ns, name, patch, nil)
}

func (c *Client) patchInto(ctx context.Context, r apiResource, ns, name string, patch []byte, out any) error {
	req := c.rc.Patch(types.MergePatchType).AbsPath(r.path(ns, name)...).Param("fieldManager", "loadlens").Body(patch)
	return do(ctx, req, out)
}

// get reads one object into out.
func (c *Client) get(ctx context.Context, r apiResource, ns, name string, out any) error {
	return do(ctx, c.rc.Get().AbsPath(r.path(ns, name)...), out)
}

// create creates obj and decodes the server's copy into out.
func (c *Client) create(ctx context.Context, r apiResource, ns string, obj, out any) error {
	b, err := json.Marshal(obj)
	if err != nil {
		return err
	}
	return do(ctx, c.rc.Post().AbsPath(r.path(ns)...).Param("fieldManager", "loadlens").Body(b), out)
}

func (c *Client) getJob(ctx context.Context, ns, name string) (*kapi.Job, error) {
	var j kapi.Job
	return &j, c.get(ctx, jobs(), ns, name, &j)
}

func (c *Client) patchJob(ctx context.Context, ns, name string, patch []byte) (*kapi.Job, error) {
	var j kapi.Job
	return &j, c.patchInto(ctx, jobs(), ns, name, patch, &j)
}

func (c *Client) listPods(ctx context.Context, ns, selector string) ([]kapi.Pod, error) {
	var l struct {
		Items []kapi.Pod `json:"items"`
	}
	err := do(ctx, c.rc.Get().AbsPath(pods().path(ns)...).Param("labelSelector", selector), &l)
	return l.Items, err
}

func (c *Client) delete(ctx context.Context, r apiResource, ns, name string, opts metav1.DeleteOptions) error {
	opts.TypeMeta = metav1.TypeMeta{APIVersion: "v1", Kind: "DeleteOptions"} // as client-go sends it
	b, err := json.Marshal(opts)
	if err != nil {
		return err
	}
	return do(ctx, c.rc.Delete().AbsPath(r.path(ns, name)...).Body(b), nil)
}

func (c *Client) deleteAll(ctx context.Context, r apiResource, ns, selector string) error {
	return do(ctx, c.rc.Delete().AbsPath(r.path(ns)...).Param("labelSelector", selector).Body([]byte(`{"kind":"DeleteOptions","apiVersion":"v1"}`)), nil)
}
