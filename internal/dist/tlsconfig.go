package dist

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"

	"github.com/loadlens/loadlens/internal/boundedfile"
)

// ServerTLS is an agent's TLS: its certificate and key, and with clientCA
// mutual TLS, where the coordinator must present a certificate that CA signed.
func ServerTLS(certFile, keyFile, clientCA string) (*tls.Config, error) {
	cert, err := keyPair(certFile, keyFile)
	if err != nil {
		return nil, err
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
		cert, err := keyPair(certFile, keyFile)
		if err != nil {
			return nil, err
		}
		c.Certificates = []tls.Certificate{cert}
	}
	return c, nil
}

// keyPair reads a PEM certificate and its key, each bounded.
func keyPair(certFile, keyFile string) (tls.Certificate, error) {
	certPEM, err := readSmall(certFile)
	if err != nil {
		return tls.Certificate{}, fmt.Errorf("--tls-cert: %w", err)
	}
	keyPEM, err := readSmall(keyFile)
	if err != nil {
		return tls.Certificate{}, fmt.Errorf("--tls-key: %w", err)
	}
	cert, err := tls.X509KeyPair(certPEM, keyPEM)
	if err != nil {
		return tls.Certificate{}, fmt.Errorf("--tls-cert/--tls-key: %w", err)
	}
	return cert, nil
}

// maxSmallFile bounds a certificate, key or token file: a few KiB each.
const maxSmallFile = 1 << 20

// readSmall reads a file of at most maxSmallFile bytes: /dev/zero named by
// mistake is refused at the bound, not read without end. A pipe is read
// (a secret from <(vault ...)), bounded too.
func readSmall(file string) ([]byte, error) {
	b, err := boundedfile.Read(file, maxSmallFile, false)
	var big *boundedfile.TooLargeError
	if errors.As(err, &big) {
		return nil, fmt.Errorf("%s is %s; a certificate, key or token file may be at most 1 MiB", file, big)
	}
	return b, err
}

// certPool reads PEM certificates from a file.
func certPool(file string) (*x509.CertPool, error) {
	b, err := readSmall(file)
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
	b, err := readSmall(file)
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
