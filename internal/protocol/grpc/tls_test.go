package grpc

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"math/big"
	"net"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/credentials"

	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/protocol"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/tmpl"
)

// selfSigned returns a certificate for 127.0.0.1 and a pool trusting it.
func selfSigned(t *testing.T) (tls.Certificate, *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tpl := &x509.Certificate{SerialNumber: big.NewInt(1), NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tpl, tpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(leaf)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}, pool
}

// TestTLSMetadataExtract: a call over TLS with metadata that the interop
// server echoes in its response headers; header checks and extract: read
// them, and the message's fields.
func TestTLSMetadataExtract(t *testing.T) {
	cert, pool := selfSigned(t)
	addr := startInterop(t, credentials.NewTLS(&tls.Config{Certificates: []tls.Certificate{cert}}))
	echoed := plan.Check{ID: 0, From: plan.FromHeader, Header: "X-Grpc-Test-Echo-Initial", Op: plan.OpEq, Values: []string{"vu-7"}}
	tests := []struct {
		name    string
		trusted bool
		kind    sample.Kind
		checks  [2]int
		vars    []string
	}{
		{"trusted", true, sample.OK, [2]int{1, 0}, []string{"vu-7", "COMPRESSABLE", "7"}},
		{"untrusted certificate: a TLS failure", false, sample.TLS, [2]int{0, 1}, []string{"", "", "none"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := plan.Session{Protocol: "grpc", Timeout: 5 * time.Second, MaxMessage: plan.DefaultMaxMessage, Checks: []plan.Check{echoed},
				Headers: []plan.Header{{Name: "X-Grpc-Test-Echo-Initial", Value: tmpl.Literal("vu-7")}},
				Extract: []plan.Extract{
					{Var: 0, From: plan.FromHeader, Header: "X-Grpc-Test-Echo-Initial", Check: 1},
					{Var: 1, From: plan.FromJSON, Path: mustPath("$.payload.type"), Check: 2},
					{Var: 2, From: plan.FromJSON, Path: mustPath("$.payload.body"), Check: -1, Default: ptr("none"),
						Regex: nil},
				},
				GRPC: &plan.GRPC{Target: addr, TLS: true, Method: "grpc.testing.TestService/UnaryCall", Messages: msg(`{"response_size": 5}`)}}
			s.Extract[2].From = plan.FromRegex
			s.Extract[2].Regex = mustRegex(`"body":\s*"[^"]*"`) // a match without a group: the whole match
			if tt.trusted {
				s.Extract[2].Regex = mustRegex(`"body":\s*"(\w)`)
			}
			s.Extract[2].From = plan.FromRegex
			e := env()
			e.TLS = func() *tls.Config {
				if tt.trusted {
					return &tls.Config{RootCAs: pool}
				}
				return &tls.Config{}
			}
			protos(s.GRPC)
			st, err := Protocol{}.Prepare(&s, e)
			if err != nil {
				t.Fatal(err)
			}
			sess := st.NewSession()
			defer sess.Close()
			vu := newFakeVU()
			sess.Run(context.Background(), vu, time.Now())
			r := vu.samples[0]
			if r.Kind != tt.kind {
				t.Errorf("kind %v (%q), want %v", r.Kind, r.Err, tt.kind)
			}
			if vu.checks[0] != tt.checks {
				t.Errorf("header check %v, want %v", vu.checks[0], tt.checks)
			}
			want := tt.vars
			if tt.trusted {
				want[2] = "A" // the body's first base64 character: five zero bytes
			}
			if got := vu.tc.Vars[:3]; strings.Join(got, "|") != strings.Join(want, "|") {
				t.Errorf("extracted %q, want %q", got, want)
			}
			if tt.trusted && (vu.checks[1] != [2]int{1, 0} || vu.checks[2] != [2]int{1, 0}) {
				t.Errorf("extract checks %v %v", vu.checks[1], vu.checks[2])
			}
		})
	}
}

// TestRefused: nothing listening is a refused connection, not a bare
// UNAVAILABLE.
func TestRefused(t *testing.T) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := lis.Addr().String()
	lis.Close()
	s := plan.Session{Protocol: "grpc", Timeout: 5 * time.Second, MaxMessage: plan.DefaultMaxMessage,
		GRPC: &plan.GRPC{Target: addr, Method: "grpc.testing.TestService/EmptyCall", Messages: msg(`{}`)}}
	protos(s.GRPC)
	st, err := Protocol{}.Prepare(&s, protocol.Env{Dialer: &net.Dialer{Timeout: time.Second}, TLS: func() *tls.Config { return &tls.Config{} }})
	if err != nil {
		t.Fatal(err)
	}
	sess := st.NewSession()
	defer sess.Close()
	vu := newFakeVU()
	sess.Run(context.Background(), vu, time.Now())
	if r, f := vu.samples[0], vu.facts[0]; r.Kind != sample.ConnRefused || f.Code != 14 {
		t.Errorf("kind %v (%q), code %d; want conn_refused, 14 (UNAVAILABLE)", r.Kind, r.Err, f.Code)
	}
}
