package k8s

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"

	gwebsocket "github.com/gorilla/websocket"
	"k8s.io/client-go/rest"
	streamhttp "k8s.io/streaming/pkg/httpstream"
	streamspdy "k8s.io/streaming/pkg/httpstream/spdy"
)

// fakeForward plays the API server's (and kubelet's) end of a pod's
// port-forward with k8s.io/streaming's SPDY server, as the kubelet does:
// SPDY inside a WebSocket (the tunnel API servers since 1.31 accept), or
// plain SPDY after a refused WebSocket upgrade. Each data stream echoes a
// line back prefixed with the port its headers name.
type fakeForward struct {
	refuseWebSocket bool
	mu              sync.Mutex
	used            []string // "websocket" or "spdy", per connection
}

func (f *fakeForward) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/api/v1/namespaces/perf/pods/agent-0/portforward" {
		http.NotFound(w, r)
		return
	}
	if gwebsocket.IsWebSocketUpgrade(r) {
		if f.refuseWebSocket {
			http.Error(w, "websocket port-forward is off", http.StatusBadRequest)
			return
		}
		up := gwebsocket.Upgrader{Subprotocols: []string{"SPDY/3.1+" + portForwardProtocol}}
		ws, err := up.Upgrade(w, r, nil)
		if err != nil {
			return
		}
		f.note("websocket")
		if _, err := streamspdy.NewServerConnection(&tunnelConn{conn: ws}, f.stream); err != nil {
			_ = ws.Close()
		}
		return
	}
	if _, err := streamhttp.Handshake(r, w, []string{portForwardProtocol}); err != nil {
		return
	}
	f.note("spdy")
	streamspdy.NewResponseUpgrader().UpgradeResponse(w, r, f.stream)
}

func (f *fakeForward) note(how string) { f.mu.Lock(); f.used = append(f.used, how); f.mu.Unlock() }

func (f *fakeForward) stream(s streamhttp.Stream, replySent <-chan struct{}) error {
	go func() {
		<-replySent
		if s.Headers().Get(streamTypeHeader) != "data" {
			_ = s.Close() // no error to report
			return
		}
		line, err := bufio.NewReader(s).ReadString('\n')
		if err == nil {
			_, _ = s.Write([]byte("port " + s.Headers().Get(portHeader) + ": " + line))
		}
		_ = s.Close()
	}()
	return nil
}

func TestPortForwardTo(t *testing.T) {
	for _, tc := range []struct {
		name            string
		refuseWebSocket bool
		want            string
	}{
		{"through the WebSocket tunnel", false, "websocket"},
		{"SPDY where the WebSocket upgrade is refused", true, "spdy"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fake := &fakeForward{refuseWebSocket: tc.refuseWebSocket}
			srv := httptest.NewUnstartedServer(fake)
			srv.EnableHTTP2 = true // as an API server: the upgrades must ask for HTTP/1.1 themselves
			srv.StartTLS()
			defer srv.Close()
			cl := &Cluster{Config: &rest.Config{Host: srv.URL, TLSClientConfig: rest.TLSClientConfig{Insecure: true}}}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			addr, err := PortForwardTo(cl, "perf", t.Output())(ctx, "agent-0", AgentPort)
			if err != nil {
				t.Fatal(err)
			}
			for i := range 2 { // each connection its own pair of streams
				msg := "hello " + strconv.Itoa(i) + "\n"
				if got := echo(t, addr, msg); got != "port "+strconv.Itoa(AgentPort)+": "+msg {
					t.Errorf("connection %d read %q", i, got)
				}
			}
			fake.mu.Lock()
			used := fake.used
			fake.mu.Unlock()
			if len(used) != 1 || used[0] != tc.want {
				t.Errorf("connections to the server %v, want one over %s", used, tc.want)
			}
			cancel()
			if err := waitClosed(addr); err != nil {
				t.Error(err)
			}
		})
	}
}

// echo sends msg through the forward and reads the line that comes back.
func echo(t *testing.T, addr, msg string) string {
	t.Helper()
	c, err := net.DialTimeout("tcp", addr, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(30 * time.Second))
	if _, err := c.Write([]byte(msg)); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(c).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	return line
}

// waitClosed waits, bounded, for the forward's listener to close once its
// context ended.
func waitClosed(addr string) error {
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err != nil {
			return nil
		}
		_ = c.Close()
		if time.Now().After(deadline) {
			return fmt.Errorf("the forward still listens on %s after its context ended", addr)
		}
		time.Sleep(20 * time.Millisecond) // polling a condition, bounded by the deadline
	}
}

// TestPortForwardGivesUpWithItsContext: an API server that never answers
// the upgrade does not hold the caller past its context.
func TestPortForwardGivesUpWithItsContext(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewTLSServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { <-release }))
	defer srv.Close()
	defer close(release)
	cl := &Cluster{Config: &rest.Config{Host: srv.URL, TLSClientConfig: rest.TLSClientConfig{Insecure: true}}}
	ctx, cancel := context.WithCancelCause(context.Background())
	gone := errors.New("the run ended")
	done := make(chan error, 1)
	go func() { _, err := PortForwardTo(cl, "perf", t.Output())(ctx, "agent-0", AgentPort); done <- err }()
	cancel(gone)
	select {
	case err := <-done:
		if !errors.Is(err, gone) {
			t.Errorf("err %v, want the context's cause", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("PortForwardTo still waits for the upgrade 30s after its context ended")
	}
}
