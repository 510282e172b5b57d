package k8s

import (
	"fmt"
	"slices"

	"github.com/goccy/go-yaml"
	"github.com/loadlens/loadlens/internal/k8s/kapi"
	"github.com/loadlens/loadlens/internal/plan"
)

// ParseAffinity reads a pod's affinity written as in a pod spec, in YAML
// or JSON (`--affinity`, the form k6-operator's TestRun takes), strictly:
// an unknown field is an error, as in the test file's section. Errors
// start with name (a file's, or the flag's) and the line and column.
func ParseAffinity(name string, src []byte) (*kapi.Affinity, error) {
	var a kapi.Affinity
	if err := plan.CheckLimits(name, src); err != nil {
		return nil, err // the YAML parser's time grows with the square of a mapping's keys
	}
	if err := yaml.UnmarshalWithOptions(src, &a, yaml.Strict()); err != nil {
		if m := yamlPos.FindStringSubmatch(err.Error()); m != nil {
			return nil, fmt.Errorf("%s:%s:%s: %s", name, m[1], m[2], firstLine(m[3]))
		}
		return nil, fmt.Errorf("%s: %s", name, firstLine(err.Error()))
	}
	p := Placement{Affinity: &a}
	if err := p.Check(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return &a, nil
}

// nodeOps are the operators a node selector requirement may use.
var nodeOps = []kapi.NodeSelectorOperator{kapi.NodeSelectorOpIn, kapi.NodeSelectorOpNotIn, kapi.NodeSelectorOpExists,
	kapi.NodeSelectorOpDoesNotExist, kapi.NodeSelectorOpGt, kapi.NodeSelectorOpLt}

// checkAffinity reports what the API server would refuse in a's node
// affinity and pod (anti-)affinity, by its path, before a run is created.
func checkAffinity(a *kapi.Affinity) error {
	if a == nil {
		return nil
	}
	if na := a.NodeAffinity; na != nil {
		if req := na.RequiredDuringSchedulingIgnoredDuringExecution; req != nil {
			if len(req.NodeSelectorTerms) == 0 {
				return &fieldError{"affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms", "give at least one term"}
			}
			for i, term := range req.NodeSelectorTerms {
				at := fmt.Sprintf("affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[%d]", i)
				if err := checkNodeTerm(at, term); err != nil {
					return err
				}
			}
		}
		for i, pref := range na.PreferredDuringSchedulingIgnoredDuringExecution {
			at := fmt.Sprintf("affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[%d]", i)
			if pref.Weight < 1 || pref.Weight > 100 {
				return &fieldError{at + ".weight", fmt.Sprintf("%d: from 1 to 100", pref.Weight)}
			}
			if err := checkNodeTerm(at+".preference", pref.Preference); err != nil {
				return err
			}
		}
	}
	for _, pa := range []struct {
		name  string
		terms []kapi.PodAffinityTerm
	}{{"podAffinity", podTerms(a.PodAffinity)}, {"podAntiAffinity", antiTerms(a.PodAntiAffinity)}} {
		for i, term := range pa.terms {
			if term.TopologyKey == "" {
				return &fieldError{fmt.Sprintf("affinity.%s.requiredDuringSchedulingIgnoredDuringExecution[%d].topologyKey", pa.name, i), "required (e.g. kubernetes.io/hostname)"}
			}
		}
	}
	return nil
}

// checkNodeTerm checks one node selector term's requirements.
func checkNodeTerm(at string, term kapi.NodeSelectorTerm) error {
	for j, r := range term.MatchExpressions {
		here := fmt.Sprintf("%s.matchExpressions[%d]", at, j)
		switch {
		case !slices.Contains(nodeOps, r.Operator):
			return &fieldError{here + ".operator", fmt.Sprintf("%q: In, NotIn, Exists, DoesNotExist, Gt or Lt", r.Operator)}
		case (r.Operator == kapi.NodeSelectorOpIn || r.Operator == kapi.NodeSelectorOpNotIn) && len(r.Values) == 0:
			return &fieldError{here + ".values", fmt.Sprintf("operator %s needs values", r.Operator)}
		case (r.Operator == kapi.NodeSelectorOpExists || r.Operator == kapi.NodeSelectorOpDoesNotExist) && len(r.Values) > 0:
			return &fieldError{here + ".values", fmt.Sprintf("operator %s takes no values", r.Operator)}
		case (r.Operator == kapi.NodeSelectorOpGt || r.Operator == kapi.NodeSelectorOpLt) && len(r.Values) != 1:
			return &fieldError{here + ".values", fmt.Sprintf("operator %s takes one value", r.Operator)}
		}
	}
	return nil
}

func podTerms(a *kapi.PodAffinity) []kapi.PodAffinityTerm {
	if a == nil {
		return nil
	}
	return a.RequiredDuringSchedulingIgnoredDuringExecution
}

func antiTerms(a *kapi.PodAntiAffinity) []kapi.PodAffinityTerm {
	if a == nil {
		return nil
	}
	return a.RequiredDuringSchedulingIgnoredDuringExecution
}
