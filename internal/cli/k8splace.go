package cli

import (
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/loadlens/loadlens/internal/k8s"
	"github.com/loadlens/loadlens/internal/k8s/kapi"
	"github.com/loadlens/loadlens/internal/plan"
)

// placementFlags are where the pods go and what they may use, over the
// test file's kubernetes: section.
type placementFlags struct {
	nodeSelector, tolerations, pullSecrets, envFrom listFlag
	envSecrets                                      listFlag
	serviceAccount, priorityClass, affinity         string
	spread                                          bool
}

func (p *placementFlags) register(fs *flag.FlagSet) {
	fs.Var(&p.nodeSelector, "node-selector", "KEY=VALUE a node's label the pods need (repeatable; over kubernetes.node_selector)")
	fs.Var(&p.tolerations, "toleration", "tolerate the taint KEY[=VALUE][:EFFECT] (repeatable; besides kubernetes.tolerations)")
	fs.StringVar(&p.affinity, "affinity", "", "the pods' affinity as in a pod spec, YAML or JSON, or @FILE (replaces kubernetes.affinity)")
	fs.BoolVar(&p.spread, "spread", false, "one agent per node, as far as the nodes go (topology spread over kubernetes.io/hostname)")
	fs.Var(&p.pullSecrets, "image-pull-secret", "a Secret to pull the image with (repeatable)")
	fs.StringVar(&p.serviceAccount, "service-account", "", "the agents' service account (its token is mounted as it says)")
	fs.Var(&p.envFrom, "env-from-secret", "a Secret whose keys become the pods' environment, for {{ env.KEY }} (repeatable)")
	fs.StringVar(&p.priorityClass, "priority-class", "", "the pods' PriorityClass")
	fs.Var(&p.envSecrets, "env-secret", "VAR=SECRET/KEY: one key of a Secret as the pods' variable VAR, for {{ env.VAR }} (repeatable; over kubernetes.env_secrets)")
}

// placement reads the test file's kubernetes: section and puts the flags
// over it. The plan's copy of the source is read (its credentials
// redacted, on their own lines), so a test read from a pipe is read once.
func (k *k8sFlags) placement(p *plan.Plan) (k8s.Placement, error) {
	src := p.Source
	if src == nil { // withheld: a credential could not be redacted
		var err error
		if src, err = os.ReadFile(p.File); err != nil {
			return k8s.Placement{}, err
		}
	}
	fromFile, err := k8s.ParsePlacement(p.File, src)
	if err != nil {
		return k8s.Placement{}, usageErr("%v", err)
	}
	flags, err := k.place.flagged(k8s.Placement{Image: k.image, CPU: k.cpu, Memory: k.memory})
	if err != nil {
		return k8s.Placement{}, err
	}
	pl := fromFile.Over(flags)
	for _, d := range []struct {
		v   *string
		def string
	}{{&pl.Image, defaultImage()}, {&pl.CPU, "1"}, {&pl.Memory, "1Gi"}} {
		if *d.v == "" {
			*d.v = d.def
		}
	}
	if err := pl.Check(); err != nil {
		if len(k.place.envSecrets) > 0 && strings.HasPrefix(err.Error(), "env_secrets.") {
			return k8s.Placement{}, usageErr("--env-secret: %v", err)
		}
		return k8s.Placement{}, usageErr("%v", fmt.Errorf("placement: %w", err))
	}
	return pl, nil
}

// flagged is pl with the placement flags set in it.
func (p *placementFlags) flagged(pl k8s.Placement) (k8s.Placement, error) {
	pl.Spread, pl.ServiceAccount, pl.PriorityClass = p.spread, p.serviceAccount, p.priorityClass
	pl.ImagePullSecrets, pl.EnvFromSecrets = p.pullSecrets, p.envFrom
	var err error
	if pl.NodeSelector, err = keyValues("--node-selector", "KEY=VALUE, e.g. pool=load", p.nodeSelector); err != nil {
		return pl, err
	}
	if pl.EnvSecrets, err = keyValues("--env-secret", "VAR=SECRET/KEY, e.g. API_KEY=api-keys/token", p.envSecrets); err != nil {
		return pl, err
	}
	for _, t := range p.tolerations {
		tol, err := k8s.ParseToleration(t)
		if err != nil {
			return pl, usageErr("--toleration %q: %v", t, err)
		}
		pl.Tolerations = append(pl.Tolerations, tol)
	}
	pl.Affinity, err = p.readAffinity()
	return pl, err
}

// keyValues reads a repeatable KEY=VALUE flag; nil when not given.
func keyValues(flag, form string, list []string) (map[string]string, error) {
	var m map[string]string
	for _, kv := range list {
		key, v, ok := strings.Cut(kv, "=")
		if !ok || key == "" {
			return nil, usageErr("%s %q: want %s", flag, kv, form)
		}
		if m == nil {
			m = map[string]string{}
		}
		m[key] = v
	}
	return m, nil
}

// readAffinity reads --affinity: inline YAML or JSON, or @FILE; nil when not given.
func (p *placementFlags) readAffinity() (*kapi.Affinity, error) {
	if p.affinity == "" {
		return nil, nil
	}
	src, name := []byte(p.affinity), "--affinity"
	if file, ok := strings.CutPrefix(p.affinity, "@"); ok {
		b, err := os.ReadFile(file)
		if err != nil {
			return nil, usageErr("--affinity: %v", err)
		}
		src, name = b, "--affinity "+file
	}
	a, err := k8s.ParseAffinity(name, src)
	if err != nil {
		return nil, usageErr("%v", err)
	}
	return a, nil
}
