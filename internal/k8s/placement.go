package k8s

import (
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/parser"
	"github.com/loadlens/loadlens/internal/k8s/kapi"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Placement is where the run's pods go and what they may use: the test
// file's `kubernetes:` section, then the command line's flags over it.
// Affinity and tolerations are written as in a pod spec.
type Placement struct {
	Image            string            `yaml:"image"`
	CPU              string            `yaml:"cpu"`
	Memory           string            `yaml:"memory"`
	NodeSelector     map[string]string `yaml:"node_selector"`
	Tolerations      []kapi.Toleration `yaml:"tolerations"`
	Affinity         *kapi.Affinity    `yaml:"affinity"`
	Spread           bool              `yaml:"spread"` // one agent per node, as far as the nodes go
	ImagePullSecrets []string          `yaml:"image_pull_secrets"`
	ServiceAccount   string            `yaml:"service_account"` // the agents'; the coordinator has its own
	EnvFromSecrets   []string          `yaml:"env_from_secrets"`
	EnvSecrets       map[string]string `yaml:"env_secrets"` // VAR: SECRET/KEY, one Secret's key as one variable
	PriorityClass    string            `yaml:"priority_class"`
}

// yamlPos finds goccy's "[line:col] message" at the start of an error.
var yamlPos = regexp.MustCompile(`^\[(\d+):(\d+)\] (.*)`)

// ParsePlacement reads the `kubernetes:` section of the test file file
// (src its text); none is the zero Placement. Errors name file:line:col.
func ParsePlacement(file string, src []byte) (Placement, error) {
	var pl Placement
	f, err := parser.ParseBytes(src, 0)
	if err != nil {
		return pl, nil // the test's own parse reports a broken file
	}
	path, _ := yaml.PathString("$.kubernetes")
	n, err := path.FilterFile(f)
	if err != nil || n == nil {
		return pl, nil // no section
	}
	if err := yaml.NodeToValue(n, &pl, yaml.Strict()); err != nil {
		if m := yamlPos.FindStringSubmatch(err.Error()); m != nil {
			return pl, fmt.Errorf("%s:%s:%s: kubernetes: %s", file, m[1], m[2], firstLine(m[3]))
		}
		tok := n.GetToken()
		return pl, fmt.Errorf("%s:%d:%d: kubernetes: %s", file, tok.Position.Line, tok.Position.Column, firstLine(err.Error()))
	}
	if err := pl.Check(); err != nil {
		tok := n.GetToken()
		var fe *fieldError
		if errors.As(err, &fe) {
			if path, perr := yaml.PathString("$.kubernetes." + fe.path); perr == nil {
				if at, ferr := path.FilterFile(f); ferr == nil && at != nil {
					tok = at.GetToken()
				}
			}
		}
		return pl, fmt.Errorf("%s:%d:%d: kubernetes.%w", file, tok.Position.Line, tok.Position.Column, err)
	}
	return pl, nil
}

func firstLine(s string) string {
	for i, r := range s {
		if r == '\n' {
			return s[:i]
		}
	}
	return s
}

// fieldError is a placement field a cluster would refuse, by its path in the section.
type fieldError struct {
	path, msg string
}

func (e *fieldError) Error() string { return e.path + ": " + e.msg }

// Check reports what a cluster would refuse, naming the field.
func (p *Placement) Check() error {
	for i, t := range p.Tolerations {
		at := fmt.Sprintf("tolerations[%d]", i)
		if !slices.Contains([]kapi.TolerationOperator{"", kapi.TolerationOpEqual, kapi.TolerationOpExists}, t.Operator) {
			return &fieldError{at + ".operator", fmt.Sprintf("%q: Equal or Exists", t.Operator)}
		}
		if !slices.Contains([]kapi.TaintEffect{"", kapi.TaintEffectNoSchedule, kapi.TaintEffectPreferNoSchedule, kapi.TaintEffectNoExecute}, t.Effect) {
			return &fieldError{at + ".effect", fmt.Sprintf("%q: NoSchedule, PreferNoSchedule or NoExecute", t.Effect)}
		}
		if t.Operator == kapi.TolerationOpExists && t.Value != "" {
			return &fieldError{at + ".value", "operator Exists takes no value"}
		}
		if t.Key == "" && t.Operator != kapi.TolerationOpExists {
			return &fieldError{at + ".key", "an empty key tolerates every taint only with operator Exists"}
		}
	}
	if err := checkAffinity(p.Affinity); err != nil {
		return err
	}
	if err := checkEnvSecrets(p.EnvSecrets); err != nil {
		return err
	}
	names := map[string][]string{"image_pull_secrets": p.ImagePullSecrets, "env_from_secrets": p.EnvFromSecrets,
		"service_account": {p.ServiceAccount}, "priority_class": {p.PriorityClass}}
	for _, field := range []string{"image_pull_secrets", "env_from_secrets", "service_account", "priority_class"} {
		for i, s := range names[field] {
			if s != "" && !validSubdomain(s) {
				at := field
				if field == "image_pull_secrets" || field == "env_from_secrets" {
					at = fmt.Sprintf("%s[%d]", field, i)
				}
				return &fieldError{at, fmt.Sprintf("%q is not a Kubernetes object name (lower-case letters, digits, '-' and '.')", s)}
			}
		}
	}
	return nil
}

var subdomain = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`)

func validSubdomain(s string) bool { return len(s) <= 253 && subdomain.MatchString(s) }

// Over returns p with what o sets put over it: scalars replace, maps and
// lists add (the flags' over the file's).
func (p Placement) Over(o Placement) Placement {
	r := p
	for _, kv := range []struct {
		dst *string
		v   string
	}{{&r.Image, o.Image}, {&r.CPU, o.CPU}, {&r.Memory, o.Memory},
		{&r.ServiceAccount, o.ServiceAccount}, {&r.PriorityClass, o.PriorityClass}} {
		if kv.v != "" {
			*kv.dst = kv.v
		}
	}
	if len(o.NodeSelector) > 0 {
		r.NodeSelector = map[string]string{}
		for k, v := range p.NodeSelector {
			r.NodeSelector[k] = v
		}
		for k, v := range o.NodeSelector {
			r.NodeSelector[k] = v
		}
	}
	if len(o.EnvSecrets) > 0 {
		r.EnvSecrets = maps.Clone(p.EnvSecrets)
		if r.EnvSecrets == nil {
			r.EnvSecrets = map[string]string{}
		}
		maps.Copy(r.EnvSecrets, o.EnvSecrets)
	}
	r.Tolerations = append(slices.Clone(p.Tolerations), o.Tolerations...)
	r.ImagePullSecrets = append(slices.Clone(p.ImagePullSecrets), o.ImagePullSecrets...)
	r.EnvFromSecrets = append(slices.Clone(p.EnvFromSecrets), o.EnvFromSecrets...)
	if o.Affinity != nil {
		r.Affinity = o.Affinity
	}
	r.Spread = p.Spread || o.Spread
	return r
}

// tolerationForm is kubectl taint's form of a taint: key[=value][:Effect].
var tolerationForm = regexp.MustCompile(`^([^=:]+)(=([^:]*))?(:(\w+))?$`)

// ParseToleration reads a toleration of the taint kubectl taint writes as
// key=value:Effect; without "=value" it tolerates any value (Exists), and
// without ":Effect" any effect.
func ParseToleration(s string) (kapi.Toleration, error) {
	m := tolerationForm.FindStringSubmatch(s)
	if m == nil {
		return kapi.Toleration{}, errors.New("want key[=value][:Effect], e.g. dedicated=load:NoSchedule")
	}
	t := kapi.Toleration{Key: m[1], Value: m[3], Effect: kapi.TaintEffect(m[5]), Operator: kapi.TolerationOpExists}
	if m[2] != "" {
		t.Operator = kapi.TolerationOpEqual
	}
	p := Placement{Tolerations: []kapi.Toleration{t}}
	return t, p.Check()
}

// apply puts the placement on a pod; agents adds what only the agents take
// (their service account, the spread over nodes).
func (p *Placement) apply(pod *kapi.PodSpec, run string, agents bool) {
	pod.NodeSelector = p.NodeSelector
	pod.Tolerations = p.Tolerations
	pod.Affinity = p.Affinity
	pod.PriorityClassName = p.PriorityClass
	for _, s := range p.ImagePullSecrets {
		pod.ImagePullSecrets = append(pod.ImagePullSecrets, kapi.LocalObjectReference{Name: s})
	}
	for _, s := range p.EnvFromSecrets {
		pod.Containers[0].EnvFrom = append(pod.Containers[0].EnvFrom, kapi.EnvFromSource{SecretRef: &kapi.SecretEnvSource{
			LocalObjectReference: kapi.LocalObjectReference{Name: s}}})
	}
	pod.Containers[0].Env = append(pod.Containers[0].Env, p.envVars()...)
	if !agents {
		return
	}
	if p.ServiceAccount != "" {
		pod.ServiceAccountName = p.ServiceAccount
		pod.AutomountServiceAccountToken = nil // the account's own choice: a workload identity needs its token
	}
	if p.Spread {
		pod.TopologySpreadConstraints = []kapi.TopologySpreadConstraint{{
			MaxSkew: 1, TopologyKey: "kubernetes.io/hostname", WhenUnsatisfiable: kapi.DoNotSchedule,
			LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{RunLabel: run, ComponentKey: "agent"}},
		}}
	}
}
