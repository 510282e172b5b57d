package k8s

import (
	"fmt"
	"strings"
	"testing"

	"github.com/loadlens/loadlens/internal/k8s/kapi"
)

const placed = `name: shop
kubernetes:
  image: registry.example/loadlens:2
  cpu: "2"
  node_selector: {pool: load}
  tolerations:
    - {key: dedicated, operator: Equal, value: load, effect: NoSchedule}
  affinity:
    nodeAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        nodeSelectorTerms:
          - matchExpressions: [{key: zone, operator: In, values: [a]}]
  spread: true
  image_pull_secrets: [regcred]
  service_account: loadgen
  env_from_secrets: [api-keys]
  env_secrets: {API_TOKEN: api-keys/token}
  priority_class: load-test
scenarios: {}
`

func TestParsePlacement(t *testing.T) {
	p, err := ParsePlacement("t.yaml", []byte(placed))
	if err != nil {
		t.Fatal(err)
	}
	if p.Image != "registry.example/loadlens:2" || p.CPU != "2" || p.NodeSelector["pool"] != "load" || !p.Spread ||
		p.ServiceAccount != "loadgen" || p.PriorityClass != "load-test" || p.ImagePullSecrets[0] != "regcred" || p.EnvFromSecrets[0] != "api-keys" {
		t.Errorf("placement %+v", p)
	}
	if len(p.Tolerations) != 1 || p.Tolerations[0] != (kapi.Toleration{Key: "dedicated", Operator: "Equal", Value: "load", Effect: "NoSchedule"}) {
		t.Errorf("tolerations %+v", p.Tolerations)
	}
	if p.Affinity == nil || p.Affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms[0].MatchExpressions[0].Values[0] != "a" {
		t.Errorf("affinity %+v", p.Affinity)
	}
	if none, err := ParsePlacement("t.yaml", []byte("name: x\n")); err != nil || none.Image != "" {
		t.Errorf("no section: %+v, %v", none, err)
	}
}

func TestParsePlacementRefuses(t *testing.T) {
	for _, tc := range []struct{ name, section, want string }{
		{"unknown key", "  nodeselector: {a: b}\n", `t.yaml:3:3: kubernetes: unknown field "nodeselector"`},
		{"wrong type", "  spread: lots\n", "t.yaml:3:"},
		{"bad effect", "  tolerations: [{key: a, effect: Never}]\n", `t.yaml:3:34: kubernetes.tolerations[0].effect: "Never": NoSchedule`},
		{"bad name", "  image_pull_secrets: [Reg_Cred]\n", `t.yaml:3:24: kubernetes.image_pull_secrets[0]: "Reg_Cred" is not a Kubernetes object name`},
		{"bad node operator", "  affinity:\n    nodeAffinity:\n      requiredDuringSchedulingIgnoredDuringExecution:\n        nodeSelectorTerms:\n" +
			"          - matchExpressions: [{key: zone, operator: Is, values: [a]}]\n",
			`t.yaml:7:54: kubernetes.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].operator: "Is": In, NotIn`},
		{"affinity misspelt", "  affinity:\n    nodeAfinity: {}\n", `t.yaml:4:5: kubernetes: unknown field "nodeAfinity"`},
		{"bad variable", "  env_secrets:\n    API-KEY: api-keys/token\n", `t.yaml:4:14: kubernetes.env_secrets.API-KEY: "API-KEY" is not a variable name`},
		{"no key", "  env_secrets: {API_KEY: api-keys}\n", `t.yaml:3:26: kubernetes.env_secrets.API_KEY: "api-keys": want SECRET/KEY`},
		{"bad secret", "  env_secrets: {API_KEY: Api_Keys/token}\n", `t.yaml:3:26: kubernetes.env_secrets.API_KEY: "Api_Keys/token": "Api_Keys" is not a Kubernetes object name`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParsePlacement("t.yaml", []byte("name: x\nkubernetes:\n"+tc.section))
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("err %v, want it to start with %q", err, tc.want)
			}
		})
	}
}

func TestParseToleration(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want kapi.Toleration
		bad  bool
	}{
		{"dedicated=load:NoSchedule", kapi.Toleration{Key: "dedicated", Operator: "Equal", Value: "load", Effect: "NoSchedule"}, false},
		{"dedicated:NoExecute", kapi.Toleration{Key: "dedicated", Operator: "Exists", Effect: "NoExecute"}, false},
		{"gpu", kapi.Toleration{Key: "gpu", Operator: "Exists"}, false},
		{"a=b:Sometimes", kapi.Toleration{}, true},
		{"=b", kapi.Toleration{}, true},
	} {
		got, err := ParseToleration(tc.in)
		if (err != nil) != tc.bad || (!tc.bad && got != tc.want) {
			t.Errorf("ParseToleration(%q) = %+v, %v", tc.in, got, err)
		}
	}
}

func TestPlacementOnThePods(t *testing.T) {
	file, err := ParsePlacement("t.yaml", []byte(placed))
	if err != nil {
		t.Fatal(err)
	}
	s := testSpec()
	s.InCluster, s.Keep, s.Startup = true, 0, 0
	s.Placement = file.Over(Placement{NodeSelector: map[string]string{"disk": "ssd"}, PriorityClass: "urgent"})
	o, err := Build(s)
	if err != nil {
		t.Fatal(err)
	}
	agent, coord := o.Job.Spec.Template.Spec, o.Coordinator.Spec.Template.Spec
	for _, p := range []kapi.PodSpec{agent, coord} {
		var fromKey *kapi.SecretKeySelector
		for _, ev := range p.Containers[0].Env {
			if ev.Name == "API_TOKEN" && ev.ValueFrom != nil {
				fromKey = ev.ValueFrom.SecretKeyRef
			}
		}
		if fromKey == nil || fromKey.Name != "api-keys" || fromKey.Key != "token" {
			t.Errorf("API_TOKEN from %+v, want the key token of Secret api-keys", fromKey)
		}
		if p.NodeSelector["pool"] != "load" || p.NodeSelector["disk"] != "ssd" || p.PriorityClassName != "urgent" || len(p.Tolerations) != 1 ||
			p.Affinity == nil || p.ImagePullSecrets[0].Name != "regcred" || p.Containers[0].EnvFrom[0].SecretRef.Name != "api-keys" {
			t.Errorf("pod placement: %+v", p)
		}
	}
	if agent.ServiceAccountName != "loadgen" || agent.AutomountServiceAccountToken != nil || len(agent.TopologySpreadConstraints) != 1 ||
		agent.TopologySpreadConstraints[0].TopologyKey != "kubernetes.io/hostname" || agent.TopologySpreadConstraints[0].MaxSkew != 1 {
		t.Errorf("the agents' service account and spread: %q %v %+v", agent.ServiceAccountName, agent.AutomountServiceAccountToken, agent.TopologySpreadConstraints)
	}
	if coord.ServiceAccountName != CoordinatorName(s.Name) || *coord.AutomountServiceAccountToken || coord.TopologySpreadConstraints != nil {
		t.Errorf("the coordinator keeps its own account and no spread: %q %+v", coord.ServiceAccountName, coord.TopologySpreadConstraints)
	}
}

// TestParseAffinity: --affinity takes a pod's affinity in YAML or JSON,
// strictly, and refuses what the API server would, naming the field.
func TestParseAffinity(t *testing.T) {
	var wide strings.Builder // its parse took 10 s: the parser's time grows with the square of a mapping's keys
	wide.WriteString("x-pad:\n")
	for i := range 20000 {
		fmt.Fprintf(&wide, "  k%d: v\n", i)
	}
	for _, tc := range []struct{ name, src, want string }{
		{"json", `{"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [{"matchExpressions": [{"key": "zone", "operator": "In", "values": ["a"]}]}]}}}`, ""},
		{"yaml", "podAntiAffinity:\n  requiredDuringSchedulingIgnoredDuringExecution:\n    - topologyKey: kubernetes.io/hostname\n      labelSelector: {matchLabels: {app: shop}}\n", ""},
		{"preferred", "nodeAffinity:\n  preferredDuringSchedulingIgnoredDuringExecution:\n    - weight: 50\n      preference: {matchExpressions: [{key: spot, operator: DoesNotExist}]}\n", ""},
		{"unknown field", `{"nodeAfinity": {}}`, `a.yaml:1:2: unknown field "nodeAfinity"`},
		{"not yaml", `{"nodeAffinity": `, "a.yaml:1:16: could not find map value"},
		{"no values", `{"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [{"matchExpressions": [{"key": "zone", "operator": "In"}]}]}}}`,
			"matchExpressions[0].values: operator In needs values"},
		{"no terms", `{"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": []}}}`, "nodeSelectorTerms: give at least one term"},
		{"weight", "nodeAffinity:\n  preferredDuringSchedulingIgnoredDuringExecution:\n    - weight: 0\n      preference: {}\n", "[0].weight: 0: from 1 to 100"},
		{"a mapping too wide to parse", wide.String(), "a.yaml:2:3: 20,000 keys in one mapping, more than 2,000"},
		{"no topology key", "podAffinity:\n  requiredDuringSchedulingIgnoredDuringExecution:\n    - labelSelector: {matchLabels: {app: db}}\n", "podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: required"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, err := ParseAffinity("a.yaml", []byte(tc.src))
			if tc.want == "" {
				if err != nil || a == nil {
					t.Fatalf("ParseAffinity: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err %v, want %q", err, tc.want)
			}
		})
	}
}
