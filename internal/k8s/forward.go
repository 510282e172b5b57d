package k8s

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"

	"k8s.io/client-go/rest"
	"k8s.io/client-go/transport/spdy"
	streamhttp "k8s.io/streaming/pkg/httpstream"
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
// It is client-go's tools/portforward for one port (that package imports
// k8s.io/api's core types, 1.7 MB of code, for four header names).
func PortForwardTo(cl *Cluster, namespace string, log io.Writer) ReachPort {
	return func(ctx context.Context, pod string, port int) (string, error) {
		url, err := podURL(cl.Config, namespace, pod, "portforward")
		if err != nil {
			return "", err
		}
		dialer, err := forwardDialer(cl.Config, url)
		if err != nil {
			return "", err
		}
		conn, protocol, err := dial(ctx, dialer)
		if err != nil {
			return "", fmt.Errorf("port-forward to pod %s: %w", pod, err)
		}
		if protocol != portForwardProtocol {
			_ = conn.Close()
			return "", fmt.Errorf("port-forward to pod %s: unable to negotiate protocol: client supports %q, server returned %q", pod, portForwardProtocol, protocol)
		}
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			_ = conn.Close()
			return "", fmt.Errorf("port-forward to pod %s: %w", pod, err)
		}
		f := &forwarder{conn: conn, port: port, log: log}
		go f.serve(ctx, ln)
		return ln.Addr().String(), nil
	}
}

// dial upgrades the connection, or gives up when ctx ends first (the
// dial itself cannot be cancelled: its connection is closed once made).
func dial(ctx context.Context, d streamhttp.Dialer) (streamhttp.Connection, string, error) {
	type result struct {
		conn     streamhttp.Connection
		protocol string
		err      error
	}
	done := make(chan result, 1)
	go func() {
		conn, protocol, err := d.Dial(portForwardProtocol)
		done <- result{conn, protocol, err}
	}()
	select {
	case r := <-done:
		if r.err != nil {
			return nil, "", fmt.Errorf("error upgrading connection: %w", r.err)
		}
		return r.conn, r.protocol, nil
	case <-ctx.Done():
		go func() { // the connection made after all is nobody's
			if r := <-done; r.err == nil {
				_ = r.conn.Close()
			}
		}()
		return nil, "", context.Cause(ctx)
	}
}

// forwardDialer dials the pod's port-forward over WebSocket (SPDY framed
// inside it, as kubectl does since 1.31), falling back to SPDY where the
// server, or a proxy on the way, refuses the WebSocket upgrade.
func forwardDialer(cfg *rest.Config, url *url.URL) (streamhttp.Dialer, error) {
	transport, upgrader, err := spdy.RoundTripperFor(cfg)
	if err != nil {
		return nil, err
	}
	fallback := spdy.NewDialerForStreaming(upgrader, &http.Client{Transport: transport}, http.MethodPost, url)
	ws, err := newTunnelDialer(url, cfg)
	if err != nil {
		return fallback, nil //nolint:nilerr // as kubectl: no WebSocket dialer, SPDY alone
	}
	return &fallbackDialer{primary: ws, secondary: fallback}, nil
}

// fallbackDialer tries primary, then secondary where primary's upgrade failed.
type fallbackDialer struct{ primary, secondary streamhttp.Dialer }

func (d *fallbackDialer) Dial(protocols ...string) (streamhttp.Connection, string, error) {
	conn, version, err := d.primary.Dial(protocols...)
	if err != nil && (streamhttp.IsUpgradeFailure(err) || streamhttp.IsHTTPSProxyError(err)) {
		return d.secondary.Dial(protocols...)
	}
	return conn, version, err
}

// podURL is the URL of a pod's subresource on the API server.
func podURL(cfg *rest.Config, ns, pod, sub string) (*url.URL, error) {
	base, _, err := rest.DefaultServerUrlFor(cfg)
	if err != nil {
		return nil, err
	}
	return base.JoinPath("api", "v1", "namespaces", ns, "pods", pod, sub), nil
}
