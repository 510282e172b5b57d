package k8s

import (
	"fmt"

	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
)

// Cluster is a connection to the user's cluster.
type Cluster struct {
	Config    *rest.Config
	Client    *Client
	Namespace string // the context's namespace, used when --namespace is not given
}

// Connect reads the kubeconfig the way kubectl does: file (or KUBECONFIG's
// list when file is empty), then context (or the current one).
func Connect(file, context string) (*Cluster, error) {
	rules := clientcmd.NewDefaultClientConfigLoadingRules()
	if file != "" {
		rules.ExplicitPath = file
	}
	cc := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(rules, &clientcmd.ConfigOverrides{CurrentContext: context})
	cfg, err := cc.ClientConfig()
	if err != nil {
		return nil, fmt.Errorf("kubeconfig: %w", err)
	}
	ns, _, err := cc.Namespace()
	if err != nil {
		return nil, fmt.Errorf("kubeconfig: %w", err)
	}
	cfg.UserAgent = "loadlens"
	client, err := newClient(cfg)
	if err != nil {
		return nil, fmt.Errorf("kubeconfig: %w", err)
	}
	return &Cluster{Config: cfg, Client: client, Namespace: ns}, nil
}
