package cli

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/loadlens/loadlens/internal/k8s"
	"github.com/loadlens/loadlens/internal/plan"
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
	auths map[string]bool // "user:password", from Basic auth or ?u=&p=; "token:T", from InfluxDB 2's Authorization
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
		if tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Token "); ok { // InfluxDB 2's
			s.auths["token:"+tok] = true
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

// received says whether the store got metrics, all with auth; if not, what it got.
func (s *influxStore) received(auth string) (bool, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ok := strings.Contains(s.body.String(), "http_reqs,") && s.auths[auth] && len(s.auths) == 1
	return ok, fmt.Sprintf("credentials %v, body:\n%.300s", s.auths, s.body.String())
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
	if err != nil {
		t.Fatal(err)
	}
	in := false
	for _, v := range sec.Data {
		in = in || strings.Contains(string(v), secret)
	}
	if !in {
		t.Errorf("the run's Secret must carry the credential %q", secret)
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

// TestOutputToken: an influxdb2 output's token reaches the coordinator's
// pod through the run's Secret, unless --env-secret gives it; without
// either, a warning says how to give it.
func TestOutputToken(t *testing.T) {
	influx2 := []plan.Output{{Kind: plan.OutInfluxDB2, URL: "http://h/api/v2/write?org=o&bucket=b"}}
	for _, tc := range []struct {
		name, token string
		file, outs  []plan.Output
		envSecret   bool
		want, warn  string
	}{
		{"no influxdb2", "tok", nil, []plan.Output{{Kind: plan.OutOTLP, URL: "http://h/v1/metrics"}}, false, "", ""},
		{"--out influxdb2", "tok", nil, influx2, false, "tok", ""},
		{"the test's outputs", "tok", influx2, nil, false, "tok", ""},
		{"--env-secret gives it", "tok", nil, influx2, true, "", ""},
		{"no token", "", nil, influx2, false, "", "--env-secret LOADLENS_INFLUXDB_TOKEN=SECRET/KEY"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(plan.InfluxTokenEnv, tc.token)
			s := &k8s.Spec{Env: map[string]string{}}
			if tc.envSecret {
				s.Placement.EnvSecrets = map[string]string{plan.InfluxTokenEnv: "influx/token"}
			}
			var errb testkit.Buffer
			outputToken(&env{stderr: &errb}, s, &plan.Plan{Outputs: tc.file}, tc.outs)
			if s.Env[plan.InfluxTokenEnv] != tc.want || (tc.warn == "") != (errb.String() == "") || !strings.Contains(errb.String(), tc.warn) {
				t.Errorf("Secret's env %q, warning %q; want %q, %q", s.Env[plan.InfluxTokenEnv], errb.String(), tc.want, tc.warn)
			}
		})
	}
}
