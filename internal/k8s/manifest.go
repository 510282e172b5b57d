package k8s

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"sigs.k8s.io/yaml"
)

// WriteManifest writes the objects as one YAML stream that `kubectl apply
// -f` accepts: what the pods need first (service account, Role, Secret,
// ConfigMaps), the Jobs last. Without a cluster there is no Job UID to own
// them, so a manifest's objects are tied together by the loadlens.dev/run
// label instead.
func WriteManifest(w io.Writer, o *Objects) error {
	objs := []any{o.Secret, o.ConfigMap, o.Job}
	if o.Coordinator != nil {
		objs = []any{o.Account, o.Role, o.Binding, o.Secret, o.ConfigMap, o.Status, o.Service, o.Job, o.Coordinator}
	}
	for _, obj := range objs {
		m, err := jsonMap(obj)
		if err != nil {
			return err
		}
		delete(m, "status") // the server's to write
		if md, ok := m["metadata"].(map[string]any); ok {
			delete(md, "creationTimestamp")
		}
		if tmpl, ok := nested(m, "spec", "template", "metadata"); ok {
			delete(tmpl, "creationTimestamp")
		}
		b, err := yaml.Marshal(m)
		if err != nil {
			return err
		}
		if _, err := fmt.Fprintf(w, "---\n%s", b); err != nil {
			return err
		}
	}
	return nil
}

// jsonMap is obj's JSON as a map, numbers kept as written.
func jsonMap(obj any) (map[string]any, error) {
	b, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var m map[string]any
	return m, d.Decode(&m)
}

// nested returns the map at path inside m.
func nested(m map[string]any, path ...string) (map[string]any, bool) {
	for _, k := range path {
		next, ok := m[k].(map[string]any)
		if !ok {
			return nil, false
		}
		m = next
	}
	return m, true
}
