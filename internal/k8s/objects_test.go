package k8s

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/k8s/kapi"
)

func testSpec() *Spec {
	return &Spec{Name: "loadlens-shop-abc123", Namespace: "perf", Image: "example/loadlens:1", Agents: 20,
		CPU: "2", Memory: "2Gi", Token: "secret-token", Test: File{Name: "shop.yaml", Data: []byte("name: shop\n")},
		Data: []File{{Name: "data/users.csv", Data: []byte("user\na\n")}}, Deadline: 15 * time.Minute, TTL: 10 * time.Minute}
}

func TestBuildJob(t *testing.T) {
	o, err := Build(testSpec())
	if err != nil {
		t.Fatal(err)
	}
	j := o.Job.Spec
	if *j.CompletionMode != kapi.IndexedCompletion || *j.Completions != 20 || *j.Parallelism != 20 {
		t.Errorf("job: mode %v completions %d parallelism %d, want Indexed 20 20", *j.CompletionMode, *j.Completions, *j.Parallelism)
	}
	if *j.ActiveDeadlineSeconds != 900 || *j.TTLSecondsAfterFinished != 600 {
		t.Errorf("deadline %d ttl %d, want 900 600", *j.ActiveDeadlineSeconds, *j.TTLSecondsAfterFinished)
	}
	if *j.BackoffLimitPerIndex != 0 || *j.MaxFailedIndexes != 20 {
		t.Errorf("a failed agent must neither restart nor fail the others: backoffLimitPerIndex %d maxFailedIndexes %d", *j.BackoffLimitPerIndex, *j.MaxFailedIndexes)
	}
	pod := j.Template.Spec
	c := pod.Containers[0]
	if c.Image != "example/loadlens:1" || strings.Join(c.Args, " ") != "agent --once" {
		t.Errorf("container: image %q args %v", c.Image, c.Args)
	}
	for _, r := range []kapi.ResourceList{c.Resources.Requests, c.Resources.Limits} {
		cpu, mem := r[kapi.ResourceCPU], r[kapi.ResourceMemory]
		if cpu.String() != "2" || mem.String() != "2Gi" {
			t.Errorf("resources %v, want cpu 2 memory 2Gi", r)
		}
	}
	env := map[string]kapi.EnvVar{}
	for _, e := range c.Env {
		env[e.Name] = e
	}
	if env[ListenEnv].Value != "0.0.0.0:6565" || env[TokenFileEnv].Value != TokenDir+"/token" {
		t.Errorf("env %v", c.Env)
	}
	if f := env[IndexEnv].ValueFrom; f == nil || f.FieldRef.FieldPath != "metadata.annotations['batch.kubernetes.io/job-completion-index']" {
		t.Errorf("%s must come from the completion index: %+v", IndexEnv, env[IndexEnv])
	}
	if !*pod.SecurityContext.RunAsNonRoot || *pod.SecurityContext.RunAsUser == 0 || *c.SecurityContext.AllowPrivilegeEscalation {
		t.Errorf("the agent must run as non-root without privilege escalation")
	}
	if pod.RestartPolicy != kapi.RestartPolicyNever || *pod.AutomountServiceAccountToken {
		t.Errorf("restart %v, automount %v", pod.RestartPolicy, *pod.AutomountServiceAccountToken)
	}
	if o.Secret.Name != pod.Volumes[0].Secret.SecretName || string(o.Secret.Data[TokenKey]) != "secret-token" {
		t.Errorf("the token volume must mount the run's Secret")
	}
	items := pod.Volumes[1].ConfigMap.Items
	if len(items) != 2 || items[0].Path != "shop.yaml" || items[1].Path != "data/users.csv" || o.ConfigMap.Data[items[1].Key] != "user\na\n" {
		t.Errorf("ConfigMap items %v data %v", items, o.ConfigMap.Data)
	}
	for _, m := range []map[string]string{o.Secret.Labels, o.ConfigMap.Labels, o.Job.Labels, j.Template.Labels} {
		if m[RunLabel] != "loadlens-shop-abc123" {
			t.Errorf("labels %v lack %s", m, RunLabel)
		}
	}
}

func TestBuildRefuses(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(*Spec)
		want string
	}{
		{"no agents", func(s *Spec) { s.Agents = 0 }, "--agents 0"},
		{"bad cpu", func(s *Spec) { s.CPU = "two" }, `--cpu "two"`},
		{"bad memory", func(s *Spec) { s.Memory = "2GB!" }, `--memory "2GB!"`},
		{"no image", func(s *Spec) { s.Image = "" }, "--image"},
		{"data outside", func(s *Spec) { s.Data[0].Name = "../users.csv" }, "../users.csv: a data file outside"},
		{"too big", func(s *Spec) { s.Data[0].Data = make([]byte, 2<<20) }, "1 MiB"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := testSpec()
			tc.edit(s)
			_, err := Build(s)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

func TestNewName(t *testing.T) {
	for _, tc := range []struct{ test, prefix string }{
		{"Checkout v2 (EU)", "loadlens-checkout-v2-eu-"},
		{"", "loadlens-"},
		{strings.Repeat("x", 80), "loadlens-" + strings.Repeat("x", 30) + "-"},
	} {
		got := NewName(tc.test)
		if !strings.HasPrefix(got, tc.prefix) || len(got) != len(tc.prefix)+6 || len(got) > 52 {
			t.Errorf("NewName(%q) = %q, want %q + 6 hex, at most 52 characters", tc.test, got, tc.prefix)
		}
	}
}

func TestManifestIsYAMLStream(t *testing.T) {
	o, err := Build(testSpec())
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WriteManifest(&b, o); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"kind: Secret", "kind: ConfigMap", "kind: Job", "completionMode: Indexed"} {
		if !strings.Contains(out, want) {
			t.Errorf("manifest lacks %q", want)
		}
	}
	if strings.Count(out, "---\n") != 3 || strings.Contains(out, "creationTimestamp") || strings.Contains(out, "status:") {
		t.Errorf("want three documents without server fields:\n%s", out)
	}
}

func TestBuildInCluster(t *testing.T) {
	s := testSpec()
	s.InCluster, s.Dashboard, s.Keep, s.Startup, s.PVC = true, "dash-token-0123456789", 10*time.Minute, 5*time.Minute, ""
	s.Env = map[string]string{"API_KEY": "k", "BASE_URL": "http://shop"}
	o, err := Build(s)
	if err != nil {
		t.Fatal(err)
	}
	c := o.Coordinator
	if c.Name != "loadlens-shop-abc123-coord" || *c.Spec.Completions != 1 || *c.Spec.BackoffLimit != 0 || *c.Spec.TTLSecondsAfterFinished != 600 ||
		*c.Spec.ActiveDeadlineSeconds != int64((25*time.Minute).Seconds()) {
		t.Errorf("coordinator Job %+v", c.Spec)
	}
	pod := c.Spec.Template.Spec
	ctr := pod.Containers[0]
	args := strings.Join(ctr.Args, " ")
	if !strings.HasPrefix(args, "k8s coordinator /etc/loadlens/test/shop.yaml --run loadlens-shop-abc123 --agents 20 --results /var/lib/loadlens/results") {
		t.Errorf("args %s", args)
	}
	env := map[string]kapi.EnvVar{}
	for _, e := range ctr.Env {
		env[e.Name] = e
	}
	if r := env["API_KEY"].ValueFrom; r == nil || r.SecretKeyRef.Key != "env.API_KEY" || string(o.Secret.Data["env.API_KEY"]) != "k" {
		t.Errorf("a -e value must reach the coordinator through the Secret: %+v", env["API_KEY"])
	}
	if r := env["LOADLENS_DASHBOARD_TOKEN"].ValueFrom; r == nil || string(o.Secret.Data[r.SecretKeyRef.Key]) != "dash-token-0123456789" {
		t.Errorf("the dashboard's token: %+v", env["LOADLENS_DASHBOARD_TOKEN"])
	}
	vols := map[string]kapi.Volume{}
	for _, v := range pod.Volumes {
		vols[v.Name] = v
	}
	if vols["results"].EmptyDir == nil || vols["kube"].Projected == nil || pod.ServiceAccountName != "loadlens-shop-abc123-coord" {
		t.Errorf("volumes %+v, account %q", vols, pod.ServiceAccountName)
	}
	if o.Service.Spec.Selector[ComponentKey] != "coordinator" || o.Job.Spec.Template.Labels[ComponentKey] != "agent" {
		t.Errorf("the Service must select the coordinator only: %v", o.Service.Spec.Selector)
	}
	if o.Binding.Subjects[0].Name != o.Account.Name || o.Binding.RoleRef.Name != o.Role.Name || ParseStatus(o.Status.Data).Phase != PhaseStarting {
		t.Errorf("RBAC or status: %+v %+v", o.Binding, o.Status.Data)
	}
	s.PVC = "perf-results"
	if o, _ = Build(s); o.Coordinator.Spec.Template.Spec.Volumes[len(o.Coordinator.Spec.Template.Spec.Volumes)-1].PersistentVolumeClaim.ClaimName != "perf-results" {
		t.Errorf("--pvc must hold the run directory")
	}
}
