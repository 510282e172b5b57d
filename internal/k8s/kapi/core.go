// Package kapi holds the few Kubernetes API types loadlens writes and
// reads (core/v1, batch/v1 and rbac/v1), with the fields it uses and the
// JSON names and optionality of k8s.io/api v0.37: that module's generated
// code for every type of every group (protobuf, deep copies) was 2.3 MB
// of the product binary's code, for about sixty types. Metadata, label
// selectors, quantities and int-or-strings stay k8s.io/apimachinery's,
// which client-go links anyway. The real API server's strict validation
// checks these types in internal/k8s's and internal/cli's tests.
package kapi

import (
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// Secret is a v1 Secret.
type Secret struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Data              map[string][]byte `json:"data,omitempty"`
	Type              SecretType        `json:"type,omitempty"`
}

// SecretType is a Secret's type.
type SecretType string

// SecretTypeOpaque is a Secret of arbitrary user data.
const SecretTypeOpaque SecretType = "Opaque"

// ConfigMap is a v1 ConfigMap.
type ConfigMap struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Data              map[string]string `json:"data,omitempty"`
}

// ServiceAccount is a v1 ServiceAccount.
type ServiceAccount struct {
	metav1.TypeMeta              `json:",inline"`
	metav1.ObjectMeta            `json:"metadata,omitempty"`
	AutomountServiceAccountToken *bool `json:"automountServiceAccountToken,omitempty"`
}

// Service is a v1 Service.
type Service struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              ServiceSpec `json:"spec,omitempty"`
}

// ServiceSpec is a Service's spec.
type ServiceSpec struct {
	Ports    []ServicePort     `json:"ports,omitempty"`
	Selector map[string]string `json:"selector,omitempty"`
}

// ServicePort is one port of a Service.
type ServicePort struct {
	Name       string             `json:"name,omitempty"`
	Protocol   Protocol           `json:"protocol,omitempty"`
	Port       int32              `json:"port"`
	TargetPort intstr.IntOrString `json:"targetPort,omitempty"`
}

// Protocol is a port's protocol.
type Protocol string

// ProtocolTCP is TCP.
const ProtocolTCP Protocol = "TCP"

// PodTemplateSpec is a Job's pod template.
type PodTemplateSpec struct {
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              PodSpec `json:"spec,omitempty"`
}

// Pod is a v1 Pod, as read back.
type Pod struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              PodSpec   `json:"spec,omitempty"`
	Status            PodStatus `json:"status,omitempty"`
}

// ResourceName is cpu or memory.
type ResourceName string

// The resources a container asks for.
const (
	ResourceCPU    ResourceName = "cpu"
	ResourceMemory ResourceName = "memory"
)

// ResourceList is a set of resource quantities.
type ResourceList map[ResourceName]resource.Quantity

// ResourceRequirements are a container's requests and limits.
type ResourceRequirements struct {
	Limits   ResourceList `json:"limits,omitempty"`
	Requests ResourceList `json:"requests,omitempty"`
}
