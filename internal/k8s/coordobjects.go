package k8s

import (
	"fmt"
	"maps"
	"sort"
	"strconv"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
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
	o.Account = &corev1.ServiceAccount{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "ServiceAccount"}, ObjectMeta: meta(coord),
		AutomountServiceAccountToken: ptr(false)}
	o.Role = &rbacv1.Role{TypeMeta: metav1.TypeMeta{APIVersion: "rbac.authorization.k8s.io/v1", Kind: "Role"}, ObjectMeta: meta(coord),
		Rules: coordinatorRules(s, coord)}
	o.Binding = &rbacv1.RoleBinding{TypeMeta: metav1.TypeMeta{APIVersion: "rbac.authorization.k8s.io/v1", Kind: "RoleBinding"}, ObjectMeta: meta(coord),
		RoleRef:  rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "Role", Name: coord},
		Subjects: []rbacv1.Subject{{Kind: "ServiceAccount", Name: coord, Namespace: s.Namespace}}}
	if s.Namespace == "" {
		o.Binding.Subjects[0].Namespace = "default" // a manifest without --namespace: kubectl -n sets the objects', not this field
	}
	o.Status = &corev1.ConfigMap{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"}, ObjectMeta: meta(StatusName(s.Name)),
		Data: (&Status{Phase: PhaseStarting, Agents: s.Agents}).Data()}
	o.Service = &corev1.Service{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Service"}, ObjectMeta: meta(s.Name),
		Spec: corev1.ServiceSpec{Selector: map[string]string{RunLabel: s.Name, ComponentKey: "coordinator"},
			Ports: []corev1.ServicePort{
				{Name: "dashboard", Port: DashboardPort, TargetPort: intstr.FromString("dashboard"), Protocol: corev1.ProtocolTCP},
				{Name: "control", Port: ControlPort, TargetPort: intstr.FromString("control"), Protocol: corev1.ProtocolTCP},
			}}}
	one, noRetry := int32(1), int32(0) // a restarted coordinator would run the test again on agents already gone
	deadline := int64((s.Deadline + s.Keep).Seconds())
	ttl := int32(s.TTL.Seconds())
	o.Coordinator = &batchv1.Job{TypeMeta: metav1.TypeMeta{APIVersion: "batch/v1", Kind: "Job"}, ObjectMeta: meta(coord),
		Spec: batchv1.JobSpec{Completions: &one, Parallelism: &one, BackoffLimit: &noRetry, ActiveDeadlineSeconds: &deadline,
			TTLSecondsAfterFinished: &ttl, Suspend: ptr(false),
			Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: maps.Clone(cl)}, Spec: coordinatorPod(s, o)}}}
	o.Coordinator.Annotations = map[string]string{"loadlens.dev/test": s.Test.Name}
}

// coordinatorRules are what the coordinator may do: read the agents' pods
// and its Jobs, write its status and, in a manifest, adopt the run's
// objects (each by name).
func coordinatorRules(s *Spec, coord string) []rbacv1.PolicyRule {
	rules := []rbacv1.PolicyRule{
		{APIGroups: []string{""}, Resources: []string{"pods"}, Verbs: []string{"get", "list"}}, // the agents' states and addresses
		{APIGroups: []string{"batch"}, Resources: []string{"jobs"}, Verbs: []string{"get"}, ResourceNames: []string{s.Name, coord}},
		{APIGroups: []string{""}, Resources: []string{"configmaps"}, Verbs: []string{"get", "patch"}, ResourceNames: []string{StatusName(s.Name)}},
	}
	if !s.Adopt {
		return rules
	}
	patch := []string{"patch"}
	return append(rules,
		rbacv1.PolicyRule{APIGroups: []string{"batch"}, Resources: []string{"jobs"}, Verbs: patch, ResourceNames: []string{s.Name}},
		rbacv1.PolicyRule{APIGroups: []string{""}, Resources: []string{"secrets", "configmaps", "services"}, Verbs: patch, ResourceNames: []string{s.Name}},
		rbacv1.PolicyRule{APIGroups: []string{""}, Resources: []string{"serviceaccounts"}, Verbs: patch, ResourceNames: []string{coord}},
		rbacv1.PolicyRule{APIGroups: []string{"rbac.authorization.k8s.io"}, Resources: []string{"roles", "rolebindings"}, Verbs: patch, ResourceNames: []string{coord}},
	)
}

// coordinatorPod is the agents' pod made the coordinator's: its own
// arguments, ports, credentials for the API and a volume for the results.
func coordinatorPod(s *Spec, o *Objects) corev1.PodSpec {
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
	for _, o := range s.Outs {
		c.Args = append(c.Args, "--out", o)
	}
	c.Env = []corev1.EnvVar{
		{Name: TokenFileEnv, Value: TokenDir + "/" + TokenKey},
		{Name: "LOADLENS_DASHBOARD_TOKEN", ValueFrom: secretRef(s.Name, DashboardKey)},
		{Name: NamespaceEnv, ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.namespace"}}},
		{Name: KubeDirEnv, Value: KubeDir},
	}
	names := make([]string, 0, len(s.Env))
	for k := range s.Env {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		c.Env = append(c.Env, corev1.EnvVar{Name: k, ValueFrom: secretRef(s.Name, envKey(k))})
	}
	c.Env = append(c.Env, s.Placement.envVars()...) // the agents' template had them; its Env is replaced above
	c.Ports = []corev1.ContainerPort{{Name: "control", ContainerPort: ControlPort, Protocol: corev1.ProtocolTCP},
		{Name: "dashboard", ContainerPort: DashboardPort, Protocol: corev1.ProtocolTCP}}
	c.StartupProbe = nil
	c.ReadinessProbe = &corev1.Probe{ // the Service, attach and fetch reach it once it serves
		ProbeHandler:  corev1.ProbeHandler{TCPSocket: &corev1.TCPSocketAction{Port: intstr.FromString("control")}},
		PeriodSeconds: 2,
	}
	c.VolumeMounts = append(c.VolumeMounts, corev1.VolumeMount{Name: "kube", MountPath: KubeDir, ReadOnly: true},
		corev1.VolumeMount{Name: "results", MountPath: ResultsDir})
	results := corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}
	if s.PVC != "" {
		results = corev1.VolumeSource{PersistentVolumeClaim: &corev1.PersistentVolumeClaimVolumeSource{ClaimName: s.PVC}}
	}
	pod.Volumes = append(pod.Volumes, corev1.Volume{Name: "kube", VolumeSource: kubeVolume()}, corev1.Volume{Name: "results", VolumeSource: results})
	pod.TerminationGracePeriodSeconds = ptr(int64(30)) // room to write the run directory after SIGTERM
	return pod
}

// kubeVolume is what a service account's automounted token holds (token,
// the cluster's CA, the namespace), mounted where the coordinator is told.
func kubeVolume() corev1.VolumeSource {
	return corev1.VolumeSource{Projected: &corev1.ProjectedVolumeSource{Sources: []corev1.VolumeProjection{
		{ServiceAccountToken: &corev1.ServiceAccountTokenProjection{Path: "token", ExpirationSeconds: ptr(int64(time.Hour.Seconds()))}},
		{ConfigMap: &corev1.ConfigMapProjection{LocalObjectReference: corev1.LocalObjectReference{Name: "kube-root-ca.crt"},
			Items: []corev1.KeyToPath{{Key: "ca.crt", Path: "ca.crt"}}}},
		{DownwardAPI: &corev1.DownwardAPIProjection{Items: []corev1.DownwardAPIVolumeFile{{Path: "namespace",
			FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.namespace"}}}}},
	}}}
}

func secretRef(name, key string) *corev1.EnvVarSource {
	return &corev1.EnvVarSource{SecretKeyRef: &corev1.SecretKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: name}, Key: key}}
}
