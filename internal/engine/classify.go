package engine

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"net"
	"net/url"
	"strings"
	"syscall"

	"github.com/loadlens/loadlens/internal/sample"
)

// classify turns a transport error into an outcome kind and a short message.
// timedOut says the request's own deadline expired.
func classify(err error, timedOut bool) (sample.Kind, string) {
	msg := shortMessage(err)
	var dnsErr *net.DNSError
	var netErr net.Error
	var certErr *tls.CertificateVerificationError
	var recErr tls.RecordHeaderError
	var alertErr tls.AlertError
	var unknownAuth x509.UnknownAuthorityError
	var hostErr x509.HostnameError
	var invalidErr x509.CertificateInvalidError
	switch {
	case timedOut, errors.Is(err, context.DeadlineExceeded), errors.As(err, &netErr) && netErr.Timeout():
		return sample.Timeout, msg
	case errors.As(err, &dnsErr):
		return sample.DNS, msg
	case errors.Is(err, syscall.ECONNREFUSED):
		return sample.ConnRefused, msg
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE),
		errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return sample.ConnReset, msg
	case errors.As(err, &certErr), errors.As(err, &recErr), errors.As(err, &alertErr),
		errors.As(err, &unknownAuth), errors.As(err, &hostErr), errors.As(err, &invalidErr),
		strings.Contains(msg, "tls:"):
		return sample.TLS, msg
	}
	return sample.Other, msg
}

// shortMessage drops net/http's `Get "http://...": ` prefix: the endpoint is
// already known, and URLs with ids would make every message distinct.
func shortMessage(err error) string {
	var uerr *url.Error
	if errors.As(err, &uerr) {
		err = uerr.Err
	}
	msg := err.Error()
	if len(msg) > 200 {
		msg = msg[:200]
	}
	return msg
}
