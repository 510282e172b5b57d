package k8s

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/loadlens/loadlens/internal/k8s/kapi"
)

var (
	envName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	// the length apart: {1,253} compiled to 253 states, 0.8 ms and 250 kB of every command's start
	secretKey = regexp.MustCompile(`^[-._a-zA-Z0-9]+$`)
)

// ParseSecretRef reads SECRET/KEY, a Secret's name and one of its keys.
func ParseSecretRef(ref string) (secret, key string, err error) {
	secret, key, ok := strings.Cut(ref, "/")
	switch {
	case !ok || secret == "" || key == "":
		return "", "", fmt.Errorf("%q: want SECRET/KEY, e.g. api-keys/token", ref)
	case !validSubdomain(secret):
		return "", "", fmt.Errorf("%q: %q is not a Kubernetes object name (lower-case letters, digits, '-' and '.')", ref, secret)
	case len(key) > 253 || !secretKey.MatchString(key):
		return "", "", fmt.Errorf("%q: %q is not a Secret's key (letters, digits, '-', '_' and '.')", ref, key)
	}
	return secret, key, nil
}

// checkEnvSecrets reports a variable name or a reference a pod would refuse.
func checkEnvSecrets(env map[string]string) error {
	for _, name := range slices.Sorted(maps.Keys(env)) {
		if !envName.MatchString(name) {
			return &fieldError{"env_secrets." + name, fmt.Sprintf("%q is not a variable name (letters, digits and '_', not first a digit)", name)}
		}
		if _, _, err := ParseSecretRef(env[name]); err != nil {
			return &fieldError{"env_secrets." + name, err.Error()}
		}
	}
	return nil
}

// envVars is each variable from a Secret's key, by name: for {{ env.X }}
// in the test, on the agents and the coordinator alike.
func (p *Placement) envVars() []kapi.EnvVar {
	var out []kapi.EnvVar
	for _, name := range slices.Sorted(maps.Keys(p.EnvSecrets)) {
		secret, key, _ := ParseSecretRef(p.EnvSecrets[name]) // Check refused a bad one
		out = append(out, kapi.EnvVar{Name: name, ValueFrom: &kapi.EnvVarSource{SecretKeyRef: &kapi.SecretKeySelector{
			LocalObjectReference: kapi.LocalObjectReference{Name: secret}, Key: key}}})
	}
	return out
}
