package k8stest

import (
	"crypto/tls"
	"net/http"
)

// insecureTransport trusts the API server's self-signed certificate, made
// for this test's loopback address only.
func insecureTransport() *http.Transport {
	return &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}} //nolint:gosec // a test's own loopback server
}
