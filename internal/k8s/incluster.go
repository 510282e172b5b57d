package k8s

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"

	"k8s.io/client-go/rest"
)

// InCluster connects the coordinator's pod to its API server as
// rest.InClusterConfig does (KUBERNETES_SERVICE_HOST and _PORT, which the
// kubelet sets in every container), with the token, CA and namespace read
// from dir, the pod's projected volume, rather than a fixed path: the
// token file is read again as the kubelet rotates it.
func InCluster(dir string) (*Cluster, error) {
	host, port := os.Getenv("KUBERNETES_SERVICE_HOST"), os.Getenv("KUBERNETES_SERVICE_PORT")
	if host == "" || port == "" {
		return nil, fmt.Errorf("not in a pod: KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT are unset")
	}
	if dir == "" {
		return nil, fmt.Errorf("$%s: give the folder of the service account's token, ca.crt and namespace", KubeDirEnv)
	}
	ca := filepath.Join(dir, "ca.crt")
	if _, err := os.Stat(ca); err != nil {
		return nil, fmt.Errorf("the cluster's CA: %w", err)
	}
	cfg := &rest.Config{
		Host:            "https://" + net.JoinHostPort(host, port),
		BearerTokenFile: filepath.Join(dir, "token"),
		TLSClientConfig: rest.TLSClientConfig{CAFile: ca},
		UserAgent:       "loadlens-coordinator",
	}
	ns, err := os.ReadFile(filepath.Join(dir, "namespace"))
	if err != nil {
		return nil, fmt.Errorf("the pod's namespace: %w", err)
	}
	client, err := newClient(cfg)
	if err != nil {
		return nil, err
	}
	return &Cluster{Config: cfg, Client: client, Namespace: strings.TrimSpace(string(ns))}, nil
}
