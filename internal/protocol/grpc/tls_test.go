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
	"github.com/loadlens/loadlens/internal/protocol/prototest"
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
	extract := []plan.Extract{
		{Var: 0, From: plan.FromHeader, Header: "X-Grpc-Test-Echo-Initial", Check: 1},
		{Var: 1, From: plan.FromJSON, Path: mustPath("$.payload.type"), Check: 2},
		{Var: 2, From: plan.FromRegex, Regex: mustRegex(`"body":\s*"(\w)`), Check: -1, Default: ptr("none")},
	}
	tests := []struct {
		name   string
		roots  *x509.CertPool
		kind   sample.Kind
		checks [3][2]int // the header check, then the two extractions' checks
		vars   string
	}{
		{"trusted", pool, sample.OK, [3][2]int{{1, 0}, {1, 0}, {1, 0}}, "vu-7|COMPRESSABLE|A"}, // A: five zero bytes in base64
		{"untrusted certificate: a TLS failure", nil, sample.TLS, [3][2]int{{0, 1}, {0, 1}, {0, 1}}, "||none"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := plan.Session{Protocol: "grpc", Timeout: 5 * time.Second, MaxMessage: plan.DefaultMaxMessage, Checks: []plan.Check{echoed},
				Headers: []plan.Header{{Name: "X-Grpc-Test-Echo-Initial", Value: tmpl.Literal("vu-7")}}, Extract: extract,
				GRPC: &plan.GRPC{Target: addr, TLS: true, Method: "grpc.testing.TestService/UnaryCall", Messages: msg(`{"response_size": 5}`)}}
			protos(s.GRPC)
			e := env()
			e.TLS = func() *tls.Config { return &tls.Config{RootCAs: tt.roots} }
			st, err := Protocol{}.Prepare(&s, e)
			if err != nil {
				t.Fatal(err)
			}
			sess := st.NewSession()
			defer sess.Close()
			vu := prototest.NewVU()
			sess.Run(context.Background(), vu, time.Now())
			if r := vu.Samples[0]; r.Kind != tt.kind {
				t.Errorf("kind %v (%q), want %v", r.Kind, r.Err, tt.kind)
			}
			for id, want := range tt.checks {
				if vu.Checks[int32(id)] != want {
					t.Errorf("check %d: %v passes/fails, want %v", id, vu.Checks[int32(id)], want)
				}
			}
			if got := strings.Join(vu.TC.Vars[:3], "|"); got != tt.vars {
				t.Errorf("extracted %q, want %q", got, tt.vars)
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
	vu := prototest.NewVU()
	sess.Run(context.Background(), vu, time.Now())
	if r, f := vu.Samples[0], vu.Facts[0]; r.Kind != sample.ConnRefused || f.Code != 14 {
		t.Errorf("kind %v (%q), code %d; want conn_refused, 14 (UNAVAILABLE)", r.Kind, r.Err, f.Code)
	}
}
