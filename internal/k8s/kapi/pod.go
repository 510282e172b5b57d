package kapi

import (
	"encoding/json"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// PodSpec is the spec of a pod.
type PodSpec struct {
	Volumes                       []Volume                   `json:"volumes,omitempty"`
	Containers                    []Container                `json:"containers"`
	RestartPolicy                 RestartPolicy              `json:"restartPolicy,omitempty"`
	TerminationGracePeriodSeconds *int64                     `json:"terminationGracePeriodSeconds,omitempty"`
	NodeSelector                  map[string]string          `json:"nodeSelector,omitempty"`
	ServiceAccountName            string                     `json:"serviceAccountName,omitempty"`
	AutomountServiceAccountToken  *bool                      `json:"automountServiceAccountToken,omitempty"`
	SecurityContext               *PodSecurityContext        `json:"securityContext,omitempty"`
	ImagePullSecrets              []LocalObjectReference     `json:"imagePullSecrets,omitempty"`
	Affinity                      *Affinity                  `json:"affinity,omitempty"`
	Tolerations                   []Toleration               `json:"tolerations,omitempty"`
	PriorityClassName             string                     `json:"priorityClassName,omitempty"`
	TopologySpreadConstraints     []TopologySpreadConstraint `json:"topologySpreadConstraints,omitempty"`
}

// DeepCopy returns a copy of s that shares nothing with it.
func (s *PodSpec) DeepCopy() *PodSpec {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err) // every field marshals
	}
	var out PodSpec
	if err := json.Unmarshal(b, &out); err != nil {
		panic(err)
	}
	return &out
}

// RestartPolicy is a pod's restart policy.
type RestartPolicy string

// RestartPolicyNever never restarts a container.
const RestartPolicyNever RestartPolicy = "Never"

// Container is one container of a pod.
type Container struct {
	Name            string               `json:"name"`
	Image           string               `json:"image,omitempty"`
	Args            []string             `json:"args,omitempty"`
	WorkingDir      string               `json:"workingDir,omitempty"`
	Ports           []ContainerPort      `json:"ports,omitempty"`
	EnvFrom         []EnvFromSource      `json:"envFrom,omitempty"`
	Env             []EnvVar             `json:"env,omitempty"`
	Resources       ResourceRequirements `json:"resources,omitempty"`
	VolumeMounts    []VolumeMount        `json:"volumeMounts,omitempty"`
	ReadinessProbe  *Probe               `json:"readinessProbe,omitempty"`
	StartupProbe    *Probe               `json:"startupProbe,omitempty"`
	SecurityContext *SecurityContext     `json:"securityContext,omitempty"`
}

// ContainerPort is a port a container listens on.
type ContainerPort struct {
	Name          string   `json:"name,omitempty"`
	ContainerPort int32    `json:"containerPort"`
	Protocol      Protocol `json:"protocol,omitempty"`
}

// EnvVar is one environment variable.
type EnvVar struct {
	Name      string        `json:"name"`
	Value     string        `json:"value,omitempty"`
	ValueFrom *EnvVarSource `json:"valueFrom,omitempty"`
}

// EnvVarSource is where a variable's value comes from.
type EnvVarSource struct {
	FieldRef     *ObjectFieldSelector `json:"fieldRef,omitempty"`
	SecretKeyRef *SecretKeySelector   `json:"secretKeyRef,omitempty"`
}

// ObjectFieldSelector names a field of the pod.
type ObjectFieldSelector struct {
	APIVersion string `json:"apiVersion,omitempty"`
	FieldPath  string `json:"fieldPath"`
}

// SecretKeySelector names one key of a Secret.
type SecretKeySelector struct {
	LocalObjectReference `json:",inline"`
	Key                  string `json:"key"`
	Optional             *bool  `json:"optional,omitempty"`
}

// EnvFromSource makes a Secret's keys variables.
type EnvFromSource struct {
	Prefix    string           `json:"prefix,omitempty"`
	SecretRef *SecretEnvSource `json:"secretRef,omitempty"`
}

// SecretEnvSource names the Secret of an EnvFromSource.
type SecretEnvSource struct {
	LocalObjectReference `json:",inline"`
	Optional             *bool `json:"optional,omitempty"`
}

// LocalObjectReference names an object in the same namespace.
type LocalObjectReference struct {
	Name string `json:"name,omitempty"`
}

// Probe is a container's probe.
type Probe struct {
	ProbeHandler     `json:",inline"`
	PeriodSeconds    int32 `json:"periodSeconds,omitempty"`
	FailureThreshold int32 `json:"failureThreshold,omitempty"`
}

// ProbeHandler is what a probe does.
type ProbeHandler struct {
	TCPSocket *TCPSocketAction `json:"tcpSocket,omitempty"`
}

// TCPSocketAction is a probe that connects to a port.
type TCPSocketAction struct {
	Port intstr.IntOrString `json:"port"`
	Host string             `json:"host,omitempty"`
}

// SecurityContext is a container's security context.
type SecurityContext struct {
	Capabilities             *Capabilities `json:"capabilities,omitempty"`
	ReadOnlyRootFilesystem   *bool         `json:"readOnlyRootFilesystem,omitempty"`
	AllowPrivilegeEscalation *bool         `json:"allowPrivilegeEscalation,omitempty"`
}

// Capabilities are the capabilities a container adds and drops.
type Capabilities struct {
	Add  []Capability `json:"add,omitempty"`
	Drop []Capability `json:"drop,omitempty"`
}

// Capability is a Linux capability.
type Capability string

// PodSecurityContext is a pod's security context.
type PodSecurityContext struct {
	RunAsUser      *int64          `json:"runAsUser,omitempty"`
	RunAsGroup     *int64          `json:"runAsGroup,omitempty"`
	RunAsNonRoot   *bool           `json:"runAsNonRoot,omitempty"`
	FSGroup        *int64          `json:"fsGroup,omitempty"`
	SeccompProfile *SeccompProfile `json:"seccompProfile,omitempty"`
}

// SeccompProfile is a pod's seccomp profile.
type SeccompProfile struct {
	Type             SeccompProfileType `json:"type"`
	LocalhostProfile *string            `json:"localhostProfile,omitempty"`
}

// SeccompProfileType is the kind of seccomp profile.
type SeccompProfileType string

// SeccompProfileTypeRuntimeDefault is the container runtime's default profile.
const SeccompProfileTypeRuntimeDefault SeccompProfileType = "RuntimeDefault"

// VolumeMount mounts a volume into a container.
type VolumeMount struct {
	Name      string `json:"name"`
	ReadOnly  bool   `json:"readOnly,omitempty"`
	MountPath string `json:"mountPath"`
}

// Volume is one volume of a pod.
type Volume struct {
	Name         string `json:"name"`
	VolumeSource `json:",inline"`
}

// VolumeSource is where a volume's files come from.
type VolumeSource struct {
	EmptyDir              *EmptyDirVolumeSource              `json:"emptyDir,omitempty"`
	Secret                *SecretVolumeSource                `json:"secret,omitempty"`
	PersistentVolumeClaim *PersistentVolumeClaimVolumeSource `json:"persistentVolumeClaim,omitempty"`
	ConfigMap             *ConfigMapVolumeSource             `json:"configMap,omitempty"`
	Projected             *ProjectedVolumeSource             `json:"projected,omitempty"`
}

// EmptyDirVolumeSource is an empty folder for the pod's life.
type EmptyDirVolumeSource struct{}

// SecretVolumeSource mounts a Secret's keys.
type SecretVolumeSource struct {
	SecretName  string      `json:"secretName,omitempty"`
	Items       []KeyToPath `json:"items,omitempty"`
	DefaultMode *int32      `json:"defaultMode,omitempty"`
}

// ConfigMapVolumeSource mounts a ConfigMap's keys.
type ConfigMapVolumeSource struct {
	LocalObjectReference `json:",inline"`
	Items                []KeyToPath `json:"items,omitempty"`
}

// PersistentVolumeClaimVolumeSource mounts a claim.
type PersistentVolumeClaimVolumeSource struct {
	ClaimName string `json:"claimName"`
	ReadOnly  bool   `json:"readOnly,omitempty"`
}

// KeyToPath mounts one key at a path.
type KeyToPath struct {
	Key  string `json:"key"`
	Path string `json:"path"`
	Mode *int32 `json:"mode,omitempty"`
}

// ProjectedVolumeSource joins several sources in one folder.
type ProjectedVolumeSource struct {
	Sources []VolumeProjection `json:"sources"`
}

// VolumeProjection is one source of a projected volume.
type VolumeProjection struct {
	DownwardAPI         *DownwardAPIProjection         `json:"downwardAPI,omitempty"`
	ConfigMap           *ConfigMapProjection           `json:"configMap,omitempty"`
	ServiceAccountToken *ServiceAccountTokenProjection `json:"serviceAccountToken,omitempty"`
}

// ServiceAccountTokenProjection is the pod's service account token.
type ServiceAccountTokenProjection struct {
	Audience          string `json:"audience,omitempty"`
	ExpirationSeconds *int64 `json:"expirationSeconds,omitempty"`
	Path              string `json:"path"`
}

// ConfigMapProjection projects a ConfigMap's keys.
type ConfigMapProjection struct {
	LocalObjectReference `json:",inline"`
	Items                []KeyToPath `json:"items,omitempty"`
}

// DownwardAPIProjection projects fields of the pod.
type DownwardAPIProjection struct {
	Items []DownwardAPIVolumeFile `json:"items,omitempty"`
}

// DownwardAPIVolumeFile is one field of the pod as a file.
type DownwardAPIVolumeFile struct {
	Path     string               `json:"path"`
	FieldRef *ObjectFieldSelector `json:"fieldRef,omitempty"`
}

// PodStatus is what the kubelet and the scheduler report of a pod.
type PodStatus struct {
	Phase             PodPhase          `json:"phase,omitempty"`
	Conditions        []PodCondition    `json:"conditions,omitempty"`
	Message           string            `json:"message,omitempty"`
	Reason            string            `json:"reason,omitempty"`
	PodIP             string            `json:"podIP,omitempty"`
	ContainerStatuses []ContainerStatus `json:"containerStatuses,omitempty"`
}

// PodPhase is a pod's phase.
type PodPhase string

// A pod's phases.
const (
	PodPending   PodPhase = "Pending"
	PodRunning   PodPhase = "Running"
	PodSucceeded PodPhase = "Succeeded"
	PodFailed    PodPhase = "Failed"
)

// PodConditionType names a pod's condition.
type PodConditionType string

// The pod conditions loadlens reads.
const (
	PodScheduled PodConditionType = "PodScheduled"
	PodReady     PodConditionType = "Ready"
)

// ConditionStatus is True, False or Unknown.
type ConditionStatus string

// The statuses of a condition.
const (
	ConditionTrue    ConditionStatus = "True"
	ConditionFalse   ConditionStatus = "False"
	ConditionUnknown ConditionStatus = "Unknown"
)

// PodCondition is one condition of a pod.
type PodCondition struct {
	Type    PodConditionType `json:"type"`
	Status  ConditionStatus  `json:"status"`
	Reason  string           `json:"reason,omitempty"`
	Message string           `json:"message,omitempty"`
}

// ContainerStatus is one container's state.
type ContainerStatus struct {
	Name  string         `json:"name"`
	State ContainerState `json:"state,omitempty"`
	Ready bool           `json:"ready"`
}

// ContainerState is waiting, running or terminated.
type ContainerState struct {
	Waiting    *ContainerStateWaiting    `json:"waiting,omitempty"`
	Running    *ContainerStateRunning    `json:"running,omitempty"`
	Terminated *ContainerStateTerminated `json:"terminated,omitempty"`
}

// ContainerStateWaiting is a container not started yet.
type ContainerStateWaiting struct {
	Reason  string `json:"reason,omitempty"`
	Message string `json:"message,omitempty"`
}

// ContainerStateRunning is a running container.
type ContainerStateRunning struct {
	StartedAt metav1.Time `json:"startedAt,omitempty"`
}

// ContainerStateTerminated is a container that exited.
type ContainerStateTerminated struct {
	ExitCode int32  `json:"exitCode"`
	Reason   string `json:"reason,omitempty"`
	Message  string `json:"message,omitempty"`
}
