package k8s

import (
	"fmt"
	"maps"
	"strconv"
	"strings"

	"github.com/loadlens/loadlens/internal/k8s/kapi"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// Objects are what one distributed run creates, in creation order after
// the Job (which owns the others).
type Objects struct {
	Secret    *kapi.Secret
	ConfigMap *kapi.ConfigMap
	Job       *kapi.Job // the agents

	// With Spec.InCluster: the coordinator's Job, which owns every other
	// object once created, and what it needs.
	Coordinator *kapi.Job
	Status      *kapi.ConfigMap
	Service     *kapi.Service
	Account     *kapi.ServiceAccount
	Role        *kapi.Role
	Binding     *kapi.RoleBinding
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
	sec := &kapi.Secret{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "Secret"},
		ObjectMeta: meta(),
		Type:       kapi.SecretTypeOpaque,
		Data:       map[string][]byte{TokenKey: []byte(s.Token)},
	}
	cm := &kapi.ConfigMap{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
		ObjectMeta: meta(),
		Data:       map[string]string{},
	}
	items, err := configMapFiles(cm, s)
	if err != nil {
		return nil, err
	}
	job := &kapi.Job{
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
func configMapFiles(cm *kapi.ConfigMap, s *Spec) ([]kapi.KeyToPath, error) {
	var items []kapi.KeyToPath
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
		items = append(items, kapi.KeyToPath{Key: key, Path: f.Name})
	}
	return items, nil
}

func jobSpec(s *Spec, labels map[string]string, items []kapi.KeyToPath) kapi.JobSpec {
	n := int32(s.Agents)
	mode := kapi.IndexedCompletion
	noRetry := int32(0) // a restarted agent cannot rejoin a run: the coordinator reports it lost
	deadline := int64(s.Deadline.Seconds())
	ttl := int32(s.TTL.Seconds())
	suspend := false
	pod := podSpec(s, items)
	s.Placement.apply(&pod, s.Name, true)
	return kapi.JobSpec{
		CompletionMode:          &mode,
		Completions:             &n,
		Parallelism:             &n,
		BackoffLimitPerIndex:    &noRetry,
		MaxFailedIndexes:        &n, // one failed agent must not stop the others: the run goes on without it
		ActiveDeadlineSeconds:   &deadline,
		TTLSecondsAfterFinished: &ttl,
		Suspend:                 &suspend,
		Template: kapi.PodTemplateSpec{
			ObjectMeta: metav1.ObjectMeta{Labels: maps.Clone(labels)},
			Spec:       pod,
		},
	}
}

func podSpec(s *Spec, items []kapi.KeyToPath) kapi.PodSpec {
	uid := int64(agentUID)
	yes, no := true, false
	tokenMode := int32(0o440)
	res := kapi.ResourceList{
		kapi.ResourceCPU:    resource.MustParse(s.CPU),
		kapi.ResourceMemory: resource.MustParse(s.Memory),
	}
	return kapi.PodSpec{
		RestartPolicy:                 kapi.RestartPolicyNever,
		AutomountServiceAccountToken:  &no, // an agent needs nothing from the API server
		TerminationGracePeriodSeconds: ptr(int64(10)),
		SecurityContext: &kapi.PodSecurityContext{
			RunAsNonRoot:   &yes,
			RunAsUser:      &uid,
			RunAsGroup:     &uid,
			FSGroup:        &uid, // lets the non-root user read the token file
			SeccompProfile: &kapi.SeccompProfile{Type: kapi.SeccompProfileTypeRuntimeDefault},
		},
		Containers: []kapi.Container{{
			Name:  "agent",
			Image: s.Image,
			// --once: the pod exits after its run, so the Job completes and its TTL collects it.
			Args: []string{"agent", "--once"},
			Env: []kapi.EnvVar{
				{Name: ListenEnv, Value: fmt.Sprintf("0.0.0.0:%d", AgentPort)},
				{Name: TokenFileEnv, Value: TokenDir + "/" + TokenKey},
				{Name: IndexEnv, ValueFrom: &kapi.EnvVarSource{FieldRef: &kapi.ObjectFieldSelector{
					FieldPath: "metadata.annotations['" + IndexAnnotate + "']"}}},
			},
			Ports:     []kapi.ContainerPort{{Name: "agent", ContainerPort: AgentPort, Protocol: kapi.ProtocolTCP}},
			Resources: kapi.ResourceRequirements{Requests: res, Limits: res},
			// A startup probe, not a readiness probe: it stops once the agent
			// listens, so no probe connection competes with the coordinator's.
			StartupProbe: &kapi.Probe{
				ProbeHandler:     kapi.ProbeHandler{TCPSocket: &kapi.TCPSocketAction{Port: intstr.FromInt32(AgentPort)}},
				PeriodSeconds:    1,
				FailureThreshold: 120,
			},
			SecurityContext: &kapi.SecurityContext{
				AllowPrivilegeEscalation: &no,
				ReadOnlyRootFilesystem:   &yes,
				Capabilities:             &kapi.Capabilities{Drop: []kapi.Capability{"ALL"}},
			},
			VolumeMounts: []kapi.VolumeMount{
				{Name: "token", MountPath: TokenDir, ReadOnly: true},
				{Name: "test", MountPath: TestDir, ReadOnly: true},
				{Name: "tmp", MountPath: "/tmp"},
			},
			WorkingDir: TestDir,
		}},
		Volumes: []kapi.Volume{
			{Name: "token", VolumeSource: kapi.VolumeSource{Secret: &kapi.SecretVolumeSource{
				SecretName: s.Name, DefaultMode: &tokenMode, Items: []kapi.KeyToPath{{Key: TokenKey, Path: TokenKey}}}}},
			{Name: "test", VolumeSource: kapi.VolumeSource{ConfigMap: &kapi.ConfigMapVolumeSource{
				LocalObjectReference: kapi.LocalObjectReference{Name: s.Name}, Items: items}}},
			{Name: "tmp", VolumeSource: kapi.VolumeSource{EmptyDir: &kapi.EmptyDirVolumeSource{}}},
		},
	}
}

func ptr[T any](v T) *T { return &v }
