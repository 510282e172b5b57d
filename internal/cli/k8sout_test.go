package cli

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/loadlens/loadlens/internal/k8s"
	"github.com/loadlens/loadlens/internal/testkit"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/kubernetes"
)

// influxStore is an InfluxDB 1.x write endpoint on 127.0.0.1 that keeps
// what it received and the credentials it was sent them with.
type influxStore struct {
	*httptest.Server
	body  testkit.Buffer
	mu    sync.Mutex
	auths map[string]bool // "user:password", from Basic auth or ?u=&p=
}

func newInfluxStore(t *testing.T) *influxStore {
	s := &influxStore{auths: map[string]bool{}}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		s.body.Write(b)
		s.mu.Lock()
		if u, p, ok := r.BasicAuth(); ok {
			s.auths[u+":"+p] = true
		}
		if q := r.URL.Query(); q.Get("u") != "" {
			s.auths[q.Get("u")+":"+q.Get("p")] = true
		}
		s.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(s.Close)
	return s
}

// received says whether the store got metrics, all with auth.
func (s *influxStore) received(auth string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return strings.Contains(s.body.String(), "http_reqs,") && s.auths[auth] && len(s.auths) == 1
}

// assertNoSecretInObjects: no object of the run that others may read
// without reading Secrets (Jobs, pods, ConfigMaps, Services) holds secret.
func assertNoSecretInObjects(t *testing.T, c kubernetes.Interface, run, secret string) {
	t.Helper()
	ctx, sel := context.Background(), metav1.ListOptions{LabelSelector: k8s.RunLabel + "=" + run}
	jobs, err1 := c.BatchV1().Jobs("perf").List(ctx, sel)
	pods, err2 := c.CoreV1().Pods("perf").List(ctx, sel)
	cms, err3 := c.CoreV1().ConfigMaps("perf").List(ctx, sel)
	svcs, err4 := c.CoreV1().Services("perf").List(ctx, sel)
	for _, err := range []error{err1, err2, err3, err4} {
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(jobs.Items) != 2 || len(pods.Items) < 3 {
		t.Fatalf("%d Jobs and %d pods of run %s, want 2 and 3", len(jobs.Items), len(pods.Items), run)
	}
	for kind, list := range map[string]any{"Job": jobs, "Pod": pods, "ConfigMap": cms, "Service": svcs} {
		b, _ := json.Marshal(list)
		if strings.Contains(string(b), secret) {
			t.Errorf("a %s of the run holds the --out credential %q", kind, secret)
		}
	}
	sec, err := c.CoreV1().Secrets("perf").Get(ctx, run, metav1.GetOptions{})
	if err != nil || !strings.Contains(string(sec.Data[k8s.OutputsKey]), secret) {
		t.Errorf("the run's Secret must carry the outputs: %v", err)
	}
}

// assertNoSecretInFiles: no file under dir holds secret.
func assertNoSecretInFiles(t *testing.T, dir, secret string) {
	t.Helper()
	n := 0
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		n++
		b, err := os.ReadFile(path)
		if err == nil && strings.Contains(string(b), secret) {
			t.Errorf("%s holds the --out credential", path)
		}
		return err
	})
	if err != nil || n == 0 {
		t.Errorf("no files in %s: %v", dir, err)
	}
}

// assertManifestHidesOutputs: in a manifest, the --out credential is in the
// Secret's data only (base64, as every Secret's), in no other document.
func assertManifestHidesOutputs(t *testing.T, manifest []byte, secret string) {
	t.Helper()
	inSecret := false
	for _, o := range decodeAll(t, manifest) {
		b, _ := json.Marshal(o.Object)
		if o.GetKind() == "Secret" {
			data, _, _ := unstructured.NestedString(o.Object, "data", k8s.OutputsKey)
			dec, _ := base64.StdEncoding.DecodeString(data)
			inSecret = strings.Contains(string(dec), secret)
			continue
		}
		if strings.Contains(string(b), secret) {
			t.Errorf("the manifest's %s %s holds the --out credential", o.GetKind(), o.GetName())
		}
	}
	if !inSecret || strings.Contains(string(manifest), secret) {
		t.Errorf("the --out credential must be in the manifest's Secret, base64 as all its data, and only there")
	}
}
