package k8s

import (
	"fmt"
	"maps"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/loadlens/loadlens/internal/k8s/kapi"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// CoordinatorName is the name of a run's coordinator Job, service account and Role.
func CoordinatorName(run string) string { return run + "-coord" }

// StatusName is the name of the ConfigMap the coordinator keeps its status in.
func StatusName(run string) string { return run + "-status" }

// envKey is the Secret's key of a -e value, which the coordinator gets as that variable.
func envKey(name string) string { return "env." + name }

// addCoordinator adds to o the coordinator's Job and what it needs: a
// service account that may read the agents' pods and write the status, the
// status ConfigMap, and a Service for the dashboard and the results.
func addCoordinator(o *Objects, s *Spec, labels map[string]string) {
	cl := maps.Clone(labels)
	cl[ComponentKey] = "coordinator"
	meta := func(name string) metav1.ObjectMeta {
		return metav1.ObjectMeta{Name: name, Namespace: s.Namespace, Labels: maps.Clone(cl)}
	}
	coord := CoordinatorName(s.Name)
	o.Secret.Data[DashboardKey] = []byte(s.Dashboard)
	for k, v := range s.Env {
		o.Secret.Data[envKey(k)] = []byte(v)
	}
	if len(s.Outs) > 0 { // never in the Job's arguments, which whoever may read Jobs or pods reads
		o.Secret.Data[OutputsKey] = []byte(strings.Join(s.Outs, "\n"))
	}
	o.Account = &kapi.ServiceAccount{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "ServiceAccount"}, ObjectMeta: meta(coord),
		AutomountServiceAccountToken: ptr(false)}
	o.Role = &kapi.Role{TypeMeta: metav1.TypeMeta{APIVersion: "rbac.authorization.k8s.io/v1", Kind: "Role"}, ObjectMeta: meta(coord),
		Rules: coordinatorRules(s, coord)}
	o.Binding = &kapi.RoleBinding{TypeMeta: metav1.TypeMeta{APIVersion: "rbac.authorization.k8s.io/v1", Kind: "RoleBinding"}, ObjectMeta: meta(coord),
		RoleRef:  kapi.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "Role", Name: coord},
		Subjects: []kapi.Subject{{Kind: "ServiceAccount", Name: coord, Namespace: s.Namespace}}}
	if s.Namespace == "" {
		o.Binding.Subjects[0].Namespace = "default" // a manifest without --namespace: kubectl -n sets the objects', not this field
	}
	o.Status = &kapi.ConfigMap{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"}, ObjectMeta: meta(StatusName(s.Name)),
		Data: (&Status{Phase: PhaseStarting, Agents: s.Agents}).Data()}
	o.Service = &kapi.Service{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Service"}, ObjectMeta: meta(s.Name),
		Spec: kapi.ServiceSpec{Selector: map[string]string{RunLabel: s.Name, ComponentKey: "coordinator"},
			Ports: []kapi.ServicePort{
				{Name: "dashboard", Port: DashboardPort, TargetPort: intstr.FromString("dashboard"), Protocol: kapi.ProtocolTCP},
				{Name: "control", Port: ControlPort, TargetPort: intstr.FromString("control"), Protocol: kapi.ProtocolTCP},
			}}}
	one, noRetry := int32(1), int32(0) // a restarted coordinator would run the test again on agents already gone
	deadline := int64((s.Deadline + s.Keep).Seconds())
	ttl := int32(s.TTL.Seconds())
	o.Coordinator = &kapi.Job{TypeMeta: metav1.TypeMeta{APIVersion: "batch/v1", Kind: "Job"}, ObjectMeta: meta(coord),
		Spec: kapi.JobSpec{Completions: &one, Parallelism: &one, BackoffLimit: &noRetry, ActiveDeadlineSeconds: &deadline,
			TTLSecondsAfterFinished: &ttl, Suspend: ptr(false),
			Template: kapi.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: maps.Clone(cl)}, Spec: coordinatorPod(s, o)}}}
	o.Coordinator.Annotations = map[string]string{"loadlens.dev/test": s.Test.Name}
}

// coordinatorRules are what the coordinator may do: read the agents' pods
// and its Jobs, write its status and, in a manifest, adopt the run's
// objects (each by name).
func coordinatorRules(s *Spec, coord string) []kapi.PolicyRule {
	rules := []kapi.PolicyRule{
		{APIGroups: []string{""}, Resources: []string{"pods"}, Verbs: []string{"get", "list"}}, // the agents' states and addresses
		{APIGroups: []string{"batch"}, Resources: []string{"jobs"}, Verbs: []string{"get"}, ResourceNames: []string{s.Name, coord}},
		{APIGroups: []string{""}, Resources: []string{"configmaps"}, Verbs: []string{"get", "patch"}, ResourceNames: []string{StatusName(s.Name)}},
	}
	if !s.Adopt {
		return rules
	}
	patch := []string{"patch"}
	return append(rules,
		kapi.PolicyRule{APIGroups: []string{"batch"}, Resources: []string{"jobs"}, Verbs: patch, ResourceNames: []string{s.Name}},
		kapi.PolicyRule{APIGroups: []string{""}, Resources: []string{"secrets", "configmaps", "services"}, Verbs: patch, ResourceNames: []string{s.Name}},
		kapi.PolicyRule{APIGroups: []string{""}, Resources: []string{"serviceaccounts"}, Verbs: patch, ResourceNames: []string{coord}},
		kapi.PolicyRule{APIGroups: []string{"rbac.authorization.k8s.io"}, Resources: []string{"roles", "rolebindings"}, Verbs: patch, ResourceNames: []string{coord}},
	)
}

// coordinatorPod is the agents' pod made the coordinator's: its own
// arguments, ports, credentials for the API and a volume for the results.
func coordinatorPod(s *Spec, o *Objects) kapi.PodSpec {
	pod := *o.Job.Spec.Template.Spec.DeepCopy()
	pod.ServiceAccountName = CoordinatorName(s.Name)
	pod.AutomountServiceAccountToken = ptr(false) // its token comes through the kube volume, where it is told
	pod.TopologySpreadConstraints = nil           // the agents' spread is theirs
	c := &pod.Containers[0]
	c.Name = "coordinator"
	c.Args = []string{"k8s", "coordinator", TestDir + "/" + s.Test.Name, "--run", s.Name, "--agents", strconv.Itoa(s.Agents),
		"--results", ResultsDir, "--dashboard-addr", fmt.Sprintf("0.0.0.0:%d", DashboardPort),
		"--control-addr", fmt.Sprintf("0.0.0.0:%d", ControlPort), "--keep", s.Keep.String(), "--startup-timeout", s.Startup.String()}
	if s.Adopt {
		c.Args = append(c.Args, "--adopt")
	}
	c.Env = []kapi.EnvVar{
		{Name: TokenFileEnv, Value: TokenDir + "/" + TokenKey},
		{Name: "LOADLENS_DASHBOARD_TOKEN", ValueFrom: secretRef(s.Name, DashboardKey)},
		{Name: NamespaceEnv, ValueFrom: &kapi.EnvVarSource{FieldRef: &kapi.ObjectFieldSelector{FieldPath: "metadata.namespace"}}},
		{Name: KubeDirEnv, Value: KubeDir},
	}
	names := make([]string, 0, len(s.Env))
	for k := range s.Env {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		c.Env = append(c.Env, kapi.EnvVar{Name: k, ValueFrom: secretRef(s.Name, envKey(k))})
	}
	c.Env = append(c.Env, s.Placement.envVars()...) // the agents' template had them; its Env is replaced above
	if len(s.Outs) > 0 {
		mountOutputs(&pod)
		c.Env = append(c.Env, kapi.EnvVar{Name: OutputsEnv, Value: TokenDir + "/" + OutputsKey})
	}
	c.Ports = []kapi.ContainerPort{{Name: "control", ContainerPort: ControlPort, Protocol: kapi.ProtocolTCP},
		{Name: "dashboard", ContainerPort: DashboardPort, Protocol: kapi.ProtocolTCP}}
	c.StartupProbe = nil
	c.ReadinessProbe = &kapi.Probe{ // the Service, attach and fetch reach it once it serves
		ProbeHandler:  kapi.ProbeHandler{TCPSocket: &kapi.TCPSocketAction{Port: intstr.FromString("control")}},
		PeriodSeconds: 2,
	}
	c.VolumeMounts = append(c.VolumeMounts, kapi.VolumeMount{Name: "kube", MountPath: KubeDir, ReadOnly: true},
		kapi.VolumeMount{Name: "results", MountPath: ResultsDir})
	results := kapi.VolumeSource{EmptyDir: &kapi.EmptyDirVolumeSource{}}
	if s.PVC != "" {
		results = kapi.VolumeSource{PersistentVolumeClaim: &kapi.PersistentVolumeClaimVolumeSource{ClaimName: s.PVC}}
	}
	pod.Volumes = append(pod.Volumes, kapi.Volume{Name: "kube", VolumeSource: kubeVolume()}, kapi.Volume{Name: "results", VolumeSource: results})
	pod.TerminationGracePeriodSeconds = ptr(int64(30)) // room to write the run directory after SIGTERM
	return pod
}

// mountOutputs adds the Secret's outputs key to the coordinator's copy of
// the token volume: a file only its pod has, as the agents have the token.
func mountOutputs(pod *kapi.PodSpec) {
	for i := range pod.Volumes {
		if v := &pod.Volumes[i]; v.Name == "token" && v.Secret != nil {
			v.Secret.Items = append(v.Secret.Items, kapi.KeyToPath{Key: OutputsKey, Path: OutputsKey})
		}
	}
}

// kubeVolume is what a service account's automounted token holds (token,
// the cluster's CA, the namespace), mounted where the coordinator is told.
func kubeVolume() kapi.VolumeSource {
	return kapi.VolumeSource{Projected: &kapi.ProjectedVolumeSource{Sources: []kapi.VolumeProjection{
		{ServiceAccountToken: &kapi.ServiceAccountTokenProjection{Path: "token", ExpirationSeconds: ptr(int64(time.Hour.Seconds()))}},
		{ConfigMap: &kapi.ConfigMapProjection{LocalObjectReference: kapi.LocalObjectReference{Name: "kube-root-ca.crt"},
			Items: []kapi.KeyToPath{{Key: "ca.crt", Path: "ca.crt"}}}},
		{DownwardAPI: &kapi.DownwardAPIProjection{Items: []kapi.DownwardAPIVolumeFile{{Path: "namespace",
			FieldRef: &kapi.ObjectFieldSelector{FieldPath: "metadata.namespace"}}}}},
	}}}
}

func secretRef(name, key string) *kapi.EnvVarSource {
	return &kapi.EnvVarSource{SecretKeyRef: &kapi.SecretKeySelector{LocalObjectReference: kapi.LocalObjectReference{Name: name}, Key: key}}
}
