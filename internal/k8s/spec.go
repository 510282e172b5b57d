package k8s

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
)

// The paths and port an agent's pod uses; the test plays a pod with them.
const (
	AgentPort     = 6565
	TokenDir      = "/var/run/loadlens/token"
	TokenKey      = "token"
	TestDir       = "/etc/loadlens/test"
	IndexEnv      = "LOADLENS_AGENT_INDEX"
	ListenEnv     = "LOADLENS_AGENT_LISTEN"
	TokenFileEnv  = "LOADLENS_TOKEN_FILE"
	RunLabel      = "loadlens.dev/run"
	IndexAnnotate = "batch.kubernetes.io/job-completion-index"

	ControlPort   = 6566 // the coordinator pod's status and results (token-protected)
	DashboardPort = 6580 // the coordinator pod's dashboard
	ResultsDir    = "/var/lib/loadlens/results"
	KubeDir       = "/var/run/loadlens/kube" // the coordinator's API credentials: token, ca.crt, namespace
	KubeDirEnv    = "LOADLENS_KUBE_DIR"
	NamespaceEnv  = "LOADLENS_K8S_NAMESPACE"
	DashboardKey  = "dashboard" // the Secret's key of the dashboard's token
	ComponentKey  = "app.kubernetes.io/component"
)

// File is a file the agents' ConfigMap carries: the test or a data file.
type File struct {
	Name string // path as the test names it (relative to the test file)
	Data []byte
}

// Spec is what a distributed run on Kubernetes needs, from the command line.
type Spec struct {
	Name      string // the run's name: prefixes every object; made by NewName
	Namespace string
	Image     string
	Agents    int
	CPU       string        // requests = limits, e.g. "2"
	Memory    string        // requests = limits, e.g. "2Gi"
	Token     string        // the shared secret agents demand of the coordinator
	Test      File          // the test file
	Data      []File        // the data files the test names
	Deadline  time.Duration // the Job's activeDeadlineSeconds: startup plus the test's length
	TTL       time.Duration // how long a finished Job (and what it owns) stays, if loadlens could not delete it
	Placement Placement     // nodes, tolerations, secrets, service account, priority (Image, CPU, Memory are above)

	// InCluster adds the coordinator's pod and what it needs (a Service,
	// a status ConfigMap, a service account): the whole run in the cluster.
	InCluster bool
	Dashboard string            // with InCluster: the dashboard's token
	Env       map[string]string // with InCluster: -e values for {{ env.X }}, kept in the Secret
	Keep      time.Duration     // with InCluster: how long a finished coordinator serves its results
	PVC       string            // with InCluster: a claim for the run directory; "": an emptyDir
	Startup   time.Duration     // with InCluster: how long the coordinator waits for the agents
	Adopt     bool              // with InCluster: a manifest's coordinator makes its Job own the run's objects
	Outs      []string          // with InCluster: the coordinator's --out KIND=URL metrics stores, besides the test's outputs:
}

// NewName returns a run name from the test's name and a random
// suffix: unique per run, a valid object name, recognisable in kubectl.
func NewName(test string) string {
	base := strings.Trim(dnsLabel(test), "-")
	if len(base) > 30 {
		base = strings.Trim(base[:30], "-")
	}
	var b [3]byte
	_, _ = rand.Read(b[:]) // crypto/rand never fails on supported platforms
	if base == "" {
		return "loadlens-" + hex.EncodeToString(b[:])
	}
	return "loadlens-" + base + "-" + hex.EncodeToString(b[:])
}

// dnsLabel lowercases s and turns every run of characters an object name
// cannot hold into one dash.
func dnsLabel(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
			dash = false
		} else if !dash {
			b.WriteByte('-')
			dash = true
		}
	}
	return b.String()
}

// NewToken returns a random token for one run.
func NewToken() string {
	var b [32]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// Check reports the first field of s a cluster would refuse, naming the flag.
func (s *Spec) Check() error {
	if s.Agents < 1 || s.Agents > 1000 {
		return fmt.Errorf("--agents %d: give 1 to 1000 agents", s.Agents)
	}
	if s.Image == "" {
		return fmt.Errorf("--image: give the loadlens image the agents run")
	}
	if _, err := resource.ParseQuantity(s.CPU); err != nil {
		return fmt.Errorf("--cpu %q: not a Kubernetes quantity (e.g. 2, 500m)", s.CPU)
	}
	if _, err := resource.ParseQuantity(s.Memory); err != nil {
		return fmt.Errorf("--memory %q: not a Kubernetes quantity (e.g. 2Gi, 512Mi)", s.Memory)
	}
	if s.Deadline <= 0 {
		return fmt.Errorf("the Job's deadline must be positive")
	}
	return nil
}
