package dist

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"os"
)

// ServerTLS is an agent's TLS: its certificate and key, and with clientCA
// mutual TLS, where the coordinator must present a certificate that CA signed.
func ServerTLS(certFile, keyFile, clientCA string) (*tls.Config, error) {
	cert, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return nil, fmt.Errorf("--tls-cert/--tls-key: %w", err)
	}
	c := &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
	if clientCA != "" {
		pool, err := certPool(clientCA)
		if err != nil {
			return nil, fmt.Errorf("--tls-client-ca: %w", err)
		}
		c.ClientCAs, c.ClientAuth = pool, tls.RequireAndVerifyClientCert
	}
	return c, nil
}

// ClientTLS is the coordinator's TLS: ca verifies the agents (empty: the
// system's roots), and certFile and keyFile, when given, are its own
// certificate for agents that require mutual TLS.
func ClientTLS(ca, certFile, keyFile string) (*tls.Config, error) {
	c := &tls.Config{MinVersion: tls.VersionTLS12}
	if ca != "" {
		pool, err := certPool(ca)
		if err != nil {
			return nil, fmt.Errorf("--tls-ca: %w", err)
		}
		c.RootCAs = pool
	}
	if certFile != "" || keyFile != "" {
		cert, err := tls.LoadX509KeyPair(certFile, keyFile)
		if err != nil {
			return nil, fmt.Errorf("--tls-cert/--tls-key: %w", err)
		}
		c.Certificates = []tls.Certificate{cert}
	}
	return c, nil
}

// certPool reads PEM certificates from a file.
func certPool(file string) (*x509.CertPool, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(b) {
		return nil, fmt.Errorf("%s holds no PEM certificate", file)
	}
	return pool, nil
}

// MinToken is the shortest token accepted, in bytes: a shorter one is
// guessed, or read off a plain-TCP connection and remembered.
const MinToken = 16

// MaxToken is the longest token accepted, in bytes: the agent reads at most
// a small frame before it knows who is talking (maxHello).
const MaxToken = 4096

// ReadToken reads the shared token from a file: its first line, trimmed.
func ReadToken(file string) (string, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return "", fmt.Errorf("token file: %w", err)
	}
	tok := string(b)
	for i, ch := range tok {
		if ch == '\n' || ch == '\r' {
			tok = tok[:i]
			break
		}
	}
	if len(tok) > MaxToken {
		return "", fmt.Errorf("token file %s holds a first line of %d bytes; a token is at most %d: make one with `head -c 32 /dev/urandom | base64 > %s`", file, len(tok), MaxToken, file)
	}
	if len(tok) < MinToken {
		return "", fmt.Errorf("token file %s holds a token of %d bytes; at least %d are needed, since without TLS it travels in the clear and a short one is guessed: make one with `head -c 32 /dev/urandom | base64 > %s`", file, len(tok), MinToken, file)
	}
	return tok, nil
}
