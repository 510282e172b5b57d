package k8s

import (
	"fmt"
	"maps"
	"strconv"
	"strings"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// Objects are what one distributed run creates, in creation order after
// the Job (which owns the others).
type Objects struct {
	Secret    *corev1.Secret
	ConfigMap *corev1.ConfigMap
	Job       *batchv1.Job // the agents

	// With Spec.InCluster: the coordinator's Job, which owns every other
	// object once created, and what it needs.
	Coordinator *batchv1.Job
	Status      *corev1.ConfigMap
	Service     *corev1.Service
	Account     *corev1.ServiceAccount
	Role        *rbacv1.Role
	Binding     *rbacv1.RoleBinding
}

// agentUID is the unprivileged user the agents run as (distroless's nonroot).
const agentUID = 65532

// Build returns the objects of the run s describes. It does not contact a cluster.
func Build(s *Spec) (*Objects, error) {
	if err := s.Check(); err != nil {
		return nil, err
	}
	labels := map[string]string{
		"app.kubernetes.io/name":       "loadlens",
		"app.kubernetes.io/component":  "agent",
		"app.kubernetes.io/managed-by": "loadlens",
		RunLabel:                       s.Name,
	}
	meta := func() metav1.ObjectMeta {
		return metav1.ObjectMeta{Name: s.Name, Namespace: s.Namespace, Labels: maps.Clone(labels),
			Annotations: map[string]string{"loadlens.dev/test": s.Test.Name}}
	}
	sec := &corev1.Secret{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "Secret"},
		ObjectMeta: meta(),
		Type:       corev1.SecretTypeOpaque,
		Data:       map[string][]byte{TokenKey: []byte(s.Token)},
	}
	cm := &corev1.ConfigMap{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
		ObjectMeta: meta(),
		Data:       map[string]string{},
	}
	items, err := configMapFiles(cm, s)
	if err != nil {
		return nil, err
	}
	job := &batchv1.Job{
		TypeMeta:   metav1.TypeMeta{APIVersion: "batch/v1", Kind: "Job"},
		ObjectMeta: meta(),
		Spec:       jobSpec(s, labels, items),
	}
	o := &Objects{Secret: sec, ConfigMap: cm, Job: job}
	if s.InCluster {
		addCoordinator(o, s, labels)
	}
	return o, nil
}

// maxConfigMap is the most a ConfigMap may hold (1 MiB), less room for its metadata.
const maxConfigMap = 1<<20 - 16<<10

// configMapFiles puts the test and its data files into cm under keys a
// ConfigMap accepts, and returns the volume items that mount each key back
// at the path the test names, so the pod holds the test as written.
func configMapFiles(cm *corev1.ConfigMap, s *Spec) ([]corev1.KeyToPath, error) {
	var items []corev1.KeyToPath
	size := 0
	for i, f := range append([]File{s.Test}, s.Data...) {
		if size += len(f.Data); size > maxConfigMap {
			return nil, fmt.Errorf("the test and its data files exceed a ConfigMap's 1 MiB at %s; split the data or build it into an image", f.Name)
		}
		if strings.HasPrefix(f.Name, "/") || strings.Contains(f.Name, "..") {
			return nil, fmt.Errorf("%s: a data file outside the test's folder cannot go into the agents' ConfigMap; move it beside the test", f.Name)
		}
		key := strconv.Itoa(i) + "-" + strings.Trim(dnsLabel(f.Name), "-")
		if i == 0 {
			key = "test.yaml"
		}
		cm.Data[key] = string(f.Data)
		items = append(items, corev1.KeyToPath{Key: key, Path: f.Name})
	}
	return items, nil
}

func jobSpec(s *Spec, labels map[string]string, items []corev1.KeyToPath) batchv1.JobSpec {
	n := int32(s.Agents)
	mode := batchv1.IndexedCompletion
	noRetry := int32(0) // a restarted agent cannot rejoin a run: the coordinator reports it lost
	deadline := int64(s.Deadline.Seconds())
	ttl := int32(s.TTL.Seconds())
	suspend := false
	pod := podSpec(s, items)
	s.Placement.apply(&pod, s.Name, true)
	return batchv1.JobSpec{
		CompletionMode:          &mode,
		Completions:             &n,
		Parallelism:             &n,
		BackoffLimitPerIndex:    &noRetry,
		MaxFailedIndexes:        &n, // one failed agent must not stop the others: the run goes on without it
		ActiveDeadlineSeconds:   &deadline,
		TTLSecondsAfterFinished: &ttl,
		Suspend:                 &suspend,
		Template: corev1.PodTemplateSpec{
			ObjectMeta: metav1.ObjectMeta{Labels: maps.Clone(labels)},
			Spec:       pod,
		},
	}
}

func podSpec(s *Spec, items []corev1.KeyToPath) corev1.PodSpec {
	uid := int64(agentUID)
	yes, no := true, false
	tokenMode := int32(0o440)
	res := corev1.ResourceList{
		corev1.ResourceCPU:    resource.MustParse(s.CPU),
		corev1.ResourceMemory: resource.MustParse(s.Memory),
	}
	return corev1.PodSpec{
		RestartPolicy:                 corev1.RestartPolicyNever,
		AutomountServiceAccountToken:  &no, // an agent needs nothing from the API server
		TerminationGracePeriodSeconds: ptr(int64(10)),
		SecurityContext: &corev1.PodSecurityContext{
			RunAsNonRoot:   &yes,
			RunAsUser:      &uid,
			RunAsGroup:     &uid,
			FSGroup:        &uid, // lets the non-root user read the token file
			SeccompProfile: &corev1.SeccompProfile{Type: corev1.SeccompProfileTypeRuntimeDefault},
		},
		Containers: []corev1.Container{{
			Name:  "agent",
			Image: s.Image,
			// --once: the pod exits after its run, so the Job completes and its TTL collects it.
			Args: []string{"agent", "--once"},
			Env: []corev1.EnvVar{
				{Name: ListenEnv, Value: fmt.Sprintf("0.0.0.0:%d", AgentPort)},
				{Name: TokenFileEnv, Value: TokenDir + "/" + TokenKey},
				{Name: IndexEnv, ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{
					FieldPath: "metadata.annotations['" + IndexAnnotate + "']"}}},
			},
			Ports:     []corev1.ContainerPort{{Name: "agent", ContainerPort: AgentPort, Protocol: corev1.ProtocolTCP}},
			Resources: corev1.ResourceRequirements{Requests: res, Limits: res},
			// A startup probe, not a readiness probe: it stops once the agent
			// listens, so no probe connection competes with the coordinator's.
			StartupProbe: &corev1.Probe{
				ProbeHandler:     corev1.ProbeHandler{TCPSocket: &corev1.TCPSocketAction{Port: intstr.FromInt32(AgentPort)}},
				PeriodSeconds:    1,
				FailureThreshold: 120,
			},
			SecurityContext: &corev1.SecurityContext{
				AllowPrivilegeEscalation: &no,
				ReadOnlyRootFilesystem:   &yes,
				Capabilities:             &corev1.Capabilities{Drop: []corev1.Capability{"ALL"}},
			},
			VolumeMounts: []corev1.VolumeMount{
				{Name: "token", MountPath: TokenDir, ReadOnly: true},
				{Name: "test", MountPath: TestDir, ReadOnly: true},
				{Name: "tmp", MountPath: "/tmp"},
			},
			WorkingDir: TestDir,
		}},
		Volumes: []corev1.Volume{
			{Name: "token", VolumeSource: corev1.VolumeSource{Secret: &corev1.SecretVolumeSource{
				SecretName: s.Name, DefaultMode: &tokenMode, Items: []corev1.KeyToPath{{Key: TokenKey, Path: TokenKey}}}}},
			{Name: "test", VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{
				LocalObjectReference: corev1.LocalObjectReference{Name: s.Name}, Items: items}}},
			{Name: "tmp", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}},
		},
	}
}

func ptr[T any](v T) *T { return &v }
