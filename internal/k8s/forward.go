package k8s

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"

	//lint:ignore SA1019 client-go v0.37's portforward takes this package's Dialer; its *ForStreaming twins are a change to test against a kubelet
	"k8s.io/apimachinery/pkg/util/httpstream"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/portforward"
	"k8s.io/client-go/transport/spdy"
)

// Reach makes an agent's pod reachable from this machine and returns the
// address the coordinator dials; it stays reachable until ctx ends. It is
// the one seam between placement and coordination: PortForward in use,
// a loopback address in the test that plays the kubelet.
type Reach func(ctx context.Context, a Agent) (addr string, err error)

// ReachPort makes a pod's port reachable from this machine, as Reach an
// agent's: the coordinator pod's control port for attach and fetch.
type ReachPort func(ctx context.Context, pod string, port int) (addr string, err error)

// PortForward reaches agents through the API server's port-forward, the
// way `kubectl port-forward` does: a listener on 127.0.0.1 (random port)
// per agent, tunnelled over WebSocket, or SPDY where the server is older.
func PortForward(cl *Cluster, namespace string, log io.Writer) Reach {
	to := PortForwardTo(cl, namespace, log)
	return func(ctx context.Context, a Agent) (string, error) { return to(ctx, a.Pod, AgentPort) }
}

// PortForwardTo reaches any pod's port as PortForward reaches an agent's.
func PortForwardTo(cl *Cluster, namespace string, log io.Writer) ReachPort {
	return func(ctx context.Context, pod string, port int) (string, error) {
		url, err := podURL(cl.Config, namespace, pod, "portforward")
		if err != nil {
			return "", err
		}
		transport, upgrader, err := spdy.RoundTripperFor(cl.Config)
		if err != nil {
			return "", err
		}
		dialer := spdy.NewDialer(upgrader, &http.Client{Transport: transport}, http.MethodPost, url)
		if ws, err := portforward.NewSPDYOverWebsocketDialer(url, cl.Config); err == nil {
			dialer = portforward.NewFallbackDialer(ws, dialer, func(err error) bool {
				return httpstream.IsUpgradeFailure(err) || httpstream.IsHTTPSProxyError(err)
			})
		}
		ready := make(chan struct{})
		fw, err := portforward.NewOnAddressesWithContext(ctx, dialer, []string{"127.0.0.1"},
			[]string{fmt.Sprintf("0:%d", port)}, ready, io.Discard, log)
		if err != nil {
			return "", err
		}
		done := make(chan error, 1)
		go func() { done <- fw.ForwardPorts() }()
		select {
		case <-ready:
		case err := <-done:
			return "", fmt.Errorf("port-forward to pod %s: %w", pod, err)
		case <-ctx.Done():
			return "", context.Cause(ctx)
		}
		ports, err := fw.GetPorts()
		if err != nil || len(ports) != 1 {
			return "", fmt.Errorf("port-forward to pod %s: no local port (%v)", pod, err)
		}
		return fmt.Sprintf("127.0.0.1:%d", ports[0].Local), nil
	}
}

// podURL is the URL of a pod's subresource on the API server.
func podURL(cfg *rest.Config, ns, pod, sub string) (*url.URL, error) {
	base, _, err := rest.DefaultServerUrlFor(cfg)
	if err != nil {
		return nil, err
	}
	return base.JoinPath("api", "v1", "namespaces", ns, "pods", pod, sub), nil
}
