package kapi

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Role is an rbac.authorization.k8s.io/v1 Role.
type Role struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Rules             []PolicyRule `json:"rules"`
}

// PolicyRule is one rule of a Role.
type PolicyRule struct {
	Verbs         []string `json:"verbs"`
	APIGroups     []string `json:"apiGroups,omitempty"`
	Resources     []string `json:"resources,omitempty"`
	ResourceNames []string `json:"resourceNames,omitempty"`
}

// RoleBinding is an rbac.authorization.k8s.io/v1 RoleBinding.
type RoleBinding struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Subjects          []Subject `json:"subjects,omitempty"`
	RoleRef           RoleRef   `json:"roleRef"`
}

// Subject is who a RoleBinding binds.
type Subject struct {
	Kind      string `json:"kind"`
	APIGroup  string `json:"apiGroup,omitempty"`
	Name      string `json:"name"`
	Namespace string `json:"namespace,omitempty"`
}

// RoleRef is the Role a RoleBinding grants.
type RoleRef struct {
	APIGroup string `json:"apiGroup"`
	Kind     string `json:"kind"`
	Name     string `json:"name"`
}
