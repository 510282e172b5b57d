package mock

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"strings"
	"time"
)

// Certificate is the TLS listener's certificate.
type Certificate struct {
	tls         tls.Certificate
	PEM         []byte // the certificate, for a client to trust (curl --cacert)
	Fingerprint string // SHA-256 of its DER form, as AB:CD:...
	Generated   bool
}

// maxPEM bounds a certificate or key file: a chain of a few certificates
// is a few KiB.
const maxPEM = 1 << 20

// loadOrGenerate loads the configured certificate, or generates a
// self-signed one for loopback and the listen host, valid for a week.
func loadOrGenerate(t *TLSConfig) (*Certificate, error) {
	if t.CertFile != "" {
		// read bounded, regular files only: tls.LoadX509KeyPair would wait on a FIFO or read /dev/zero forever
		certPEM, err := readFile(t.CertFile, maxPEM)
		if err != nil {
			return nil, fmt.Errorf("mock: tls.cert %s: %w", t.CertFile, err)
		}
		keyPEM, err := readFile(t.KeyFile, maxPEM)
		if err != nil {
			return nil, fmt.Errorf("mock: tls.key %s: %w", t.KeyFile, err)
		}
		c, err := tls.X509KeyPair(certPEM, keyPEM)
		if err != nil {
			return nil, fmt.Errorf("mock: TLS certificate: %w", err)
		}
		return &Certificate{tls: c, PEM: certPEM, Fingerprint: fingerprint(c.Certificate[0])}, nil
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	serial, _ := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 120))
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber: serial,
		Subject:      pkix.Name{CommonName: "loadlens mock", Organization: []string{"loadlens"}},
		NotBefore:    now.Add(-time.Hour),
		NotAfter:     now.Add(7 * 24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		DNSNames:     []string{"localhost"},
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback},
	}
	if host, _, err := net.SplitHostPort(t.Listen); err == nil && host != "" {
		if ip := net.ParseIP(host); ip != nil && !ip.IsLoopback() && !ip.IsUnspecified() {
			tmpl.IPAddresses = append(tmpl.IPAddresses, ip)
		} else if ip == nil && host != "localhost" {
			tmpl.DNSNames = append(tmpl.DNSNames, host)
		}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, err
	}
	return &Certificate{
		tls:         tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key},
		PEM:         pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		Fingerprint: fingerprint(der),
		Generated:   true,
	}, nil
}

// fingerprint returns the SHA-256 of der as colon-separated hex.
func fingerprint(der []byte) string {
	sum := sha256.Sum256(der)
	parts := make([]string, len(sum))
	for i, b := range sum {
		parts[i] = fmt.Sprintf("%02X", b)
	}
	return strings.Join(parts, ":")
}
