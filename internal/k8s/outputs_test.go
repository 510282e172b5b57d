package k8s

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/k8s/kapi"
)

// TestOutputsTravelInTheSecret: --out URLs may carry credentials; they go
// into the run's Secret, mounted for the coordinator only, never into a
// Job's arguments or environment, which whoever reads Jobs or pods reads.
func TestOutputsTravelInTheSecret(t *testing.T) {
	s := testSpec()
	s.InCluster, s.Dashboard, s.Keep, s.Startup = true, "dash-token-0123456789", time.Minute, time.Minute
	s.Outs = []string{"influxdb=http://ci:pw-in-userinfo@influx:8086/write?db=k6",
		"prometheus-rw=http://prom:9090/api/v1/write?token=tok-in-query"}
	o, err := Build(s)
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range []any{o.Job, o.Coordinator, o.ConfigMap, o.Status, o.Service} {
		b, _ := json.Marshal(j)
		for _, secret := range []string{"pw-in-userinfo", "tok-in-query", "influx:8086"} {
			if strings.Contains(string(b), secret) {
				t.Errorf("%s in %s", secret, b)
			}
		}
	}
	if got := string(o.Secret.Data[OutputsKey]); got != strings.Join(s.Outs, "\n") {
		t.Errorf("the Secret's %s: %q", OutputsKey, got)
	}
	pod := o.Coordinator.Spec.Template.Spec
	var env string
	for _, e := range pod.Containers[0].Env {
		if e.Name == OutputsEnv {
			env = e.Value
		}
	}
	if env != TokenDir+"/"+OutputsKey || !mounts(pod, OutputsKey) {
		t.Errorf("the coordinator must read its outputs from the mounted Secret: $%s=%q, mounted %v", OutputsEnv, env, mounts(pod, OutputsKey))
	}
	if mounts(o.Job.Spec.Template.Spec, OutputsKey) {
		t.Errorf("the agents' pods mount the outputs too")
	}
	s.Outs = nil
	if o, _ = Build(s); o.Secret.Data[OutputsKey] != nil || mounts(o.Coordinator.Spec.Template.Spec, OutputsKey) {
		t.Errorf("no --out: no outputs key")
	}
}

func mounts(pod kapi.PodSpec, key string) bool {
	for _, v := range pod.Volumes {
		if v.Secret == nil {
			continue
		}
		for _, it := range v.Secret.Items {
			if it.Key == key {
				return true
			}
		}
	}
	return false
}

func TestReadOutputs(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, content string
		want          []string
		err           string
	}{
		{"two", "influxdb=http://u:p@h/write?db=k6\n\notlp=http://h:4318/v1/metrics\n", []string{"influxdb=http://u:p@h/write?db=k6", "otlp=http://h:4318/v1/metrics"}, ""},
		{"bad line", "otlp=http://h:4318/v1/metrics\ngraphite=http://u:pw-hidden@h\n", nil, ":2: unknown output kind"},
		{"bad url", "influxdb=ftp://u:pw-hidden@h/write?db=k6\n", nil, ":1: influxdb: bad URL"},
		{"too big", strings.Repeat("x", maxOutputsFile+1), nil, ": more than a Secret's 1 MiB"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-"))
			if err := os.WriteFile(path, []byte(tc.content), 0o600); err != nil {
				t.Fatal(err)
			}
			got, err := ReadOutputs(path)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), path+tc.err) || strings.Contains(err.Error(), "pw-hidden") {
					t.Errorf("error %v, want %q naming the file, without the password", err, tc.err)
				}
				return
			}
			if err != nil || strings.Join(got, " ") != strings.Join(tc.want, " ") {
				t.Errorf("%q, %v; want %q", got, err, tc.want)
			}
		})
	}
	if _, err := ReadOutputs(filepath.Join(dir, "none")); err == nil || !strings.Contains(err.Error(), OutputsEnv) {
		t.Errorf("a missing file: %v", err)
	}
}
