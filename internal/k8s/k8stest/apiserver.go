// Package k8stest starts a real kube-apiserver on etcd, both on 127.0.0.1,
// for tests. No scheduler, controller or kubelet runs: objects are stored
// and validated, nothing is started, so a test plays those parts itself;
// StartControllers adds the controller manager's clean-up controllers
// (TTL-after-finished, garbage collector). Only tests import it.
package k8stest

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/hex"
	"encoding/pem"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// BinaryEnv names the variable holding kube-apiserver's path
// (scripts/kube-apiserver builds it; .ci/run exports it).
const BinaryEnv = "LOADLENS_KUBE_APISERVER"

// kubeVersion is the version scripts/kube-apiserver builds by default.
const kubeVersion = "v1.36.3"

// APIServer is a running kube-apiserver.
type APIServer struct {
	URL        string // https://127.0.0.1:port
	Token      string // a system:masters bearer token
	Kubeconfig string // a kubeconfig file for URL and Token
	CertFile   string // the server's self-signed certificate and its CA, as a pod's ca.crt
	dir        string // its files and logs
}

// Start starts etcd and kube-apiserver, stopped when t ends. Without them
// the test is skipped, or fails under LOADLENS_CI=1, which installs them.
func Start(t *testing.T) *APIServer {
	t.Helper()
	apiserver := binary(BinaryEnv, "kube-apiserver")
	etcd, etcdErr := exec.LookPath("etcd")
	if apiserver == "" || etcdErr != nil {
		why := fmt.Sprintf("needs kube-apiserver in $%s (scripts/kube-apiserver builds it) and etcd on PATH (Debian etcd-server); have %q, etcd: %v", BinaryEnv, apiserver, etcdErr)
		if os.Getenv("LOADLENS_CI") == "1" {
			t.Fatal(why)
		}
		t.Skip(why)
	}
	dir := t.TempDir()
	ports := freePorts(t, 3)
	etcdURL := "http://127.0.0.1:" + ports[0]
	peerURL := "http://127.0.0.1:" + ports[1]
	startProcess(t, filepath.Join(dir, "etcd.log"), etcd, "--data-dir", filepath.Join(dir, "etcd"),
		"--listen-client-urls", etcdURL, "--advertise-client-urls", etcdURL,
		"--listen-peer-urls", peerURL, "--initial-advertise-peer-urls", peerURL,
		"--initial-cluster", "default="+peerURL, "--log-level", "error")

	token := randomHex(t)
	writeFile(t, filepath.Join(dir, "tokens.csv"), token+",admin,admin,system:masters\n")
	writeFile(t, filepath.Join(dir, "sa.key"), serviceAccountKey(t))
	s := &APIServer{URL: "https://127.0.0.1:" + ports[2], Token: token, Kubeconfig: filepath.Join(dir, "kubeconfig"),
		CertFile: filepath.Join(dir, "certs", "apiserver.crt"), dir: dir}
	startProcess(t, filepath.Join(dir, "apiserver.log"), apiserver,
		"--etcd-servers="+etcdURL, "--bind-address=127.0.0.1", "--advertise-address=127.0.0.1",
		"--secure-port="+ports[2], "--cert-dir="+filepath.Join(dir, "certs"),
		"--service-cluster-ip-range=10.96.0.0/24", "--token-auth-file="+filepath.Join(dir, "tokens.csv"),
		"--authorization-mode=RBAC", "--service-account-issuer=https://kubernetes.default.svc",
		"--service-account-key-file="+filepath.Join(dir, "sa.key"),
		"--service-account-signing-key-file="+filepath.Join(dir, "sa.key"))
	writeFile(t, s.Kubeconfig, fmt.Sprintf(`apiVersion: v1
kind: Config
clusters: [{name: test, cluster: {server: %q, insecure-skip-tls-verify: true}}]
users: [{name: admin, user: {token: %q}}]
contexts: [{name: test, context: {cluster: test, user: admin, namespace: default}}]
current-context: test
`, s.URL, token))
	s.waitReady(t, filepath.Join(dir, "apiserver.log"))
	return s
}

// binary is $env, else the command name that scripts/kube-apiserver
// caches, else "".
func binary(env, name string) string {
	if p := os.Getenv(env); p != "" {
		return p
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	p := filepath.Join(home, ".cache", "loadlens-ci", name+"-"+kubeVersion)
	if _, err := os.Stat(p); err != nil {
		return ""
	}
	return p
}

// waitReady polls /readyz (a few seconds on a quiet machine; the bound is
// generous for a busy one).
func (s *APIServer) waitReady(t *testing.T, logFile string) {
	t.Helper()
	client := &http.Client{Timeout: 5 * time.Second, Transport: insecureTransport()}
	deadline := time.Now().Add(3 * time.Minute)
	for {
		req, _ := http.NewRequest(http.MethodGet, s.URL+"/readyz", nil)
		req.Header.Set("Authorization", "Bearer "+s.Token)
		resp, err := client.Do(req)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(logFile)
			t.Fatalf("kube-apiserver not ready after 3 minutes (last: %v); its log ends:\n%s", err, tail(log, 3000))
		}
		time.Sleep(200 * time.Millisecond) // polling readiness, bounded by the deadline
	}
}

// startProcess runs a server until the test ends, its output in logFile.
func startProcess(t *testing.T, logFile, bin string, args ...string) {
	t.Helper()
	f, err := os.Create(logFile)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Stdout, cmd.Stderr = f, f
	cmd.WaitDelay = 10 * time.Second
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatalf("starting %s: %v", bin, err)
	}
	t.Cleanup(func() {
		cancel()
		_ = cmd.Wait()
		f.Close()
	})
}

// freePorts returns n loopback ports that were free a moment ago.
func freePorts(t *testing.T, n int) []string {
	t.Helper()
	var ports []string
	var lns []net.Listener
	for range n {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		lns = append(lns, ln)
		ports = append(ports, strconv.Itoa(ln.Addr().(*net.TCPAddr).Port))
	}
	for _, ln := range lns {
		ln.Close()
	}
	return ports
}

func serviceAccountKey(t *testing.T) string {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)}))
}

func randomHex(t *testing.T) string {
	t.Helper()
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b[:])
}

func writeFile(t *testing.T, path, s string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(s), 0o600); err != nil {
		t.Fatal(err)
	}
}

func tail(b []byte, n int) []byte {
	if len(b) > n {
		b = b[len(b)-n:]
	}
	return bytes.TrimSpace(b)
}
