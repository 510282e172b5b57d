package engine

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"net"
	"net/url"
	"strconv"
	"strings"
	"syscall"

	"github.com/loadlens/loadlens/internal/sample"
)

// classify turns a transport error that is not a timeout into an outcome
// kind and a short message. TLS errors come first: a server that closes or
// resets the connection in the handshake fails the handshake.
func classify(err error) (sample.Kind, string) {
	msg := shortMessage(err)
	var netErr net.Error
	var certErr *tls.CertificateVerificationError
	var recErr tls.RecordHeaderError
	var alertErr tls.AlertError
	var unknownAuth x509.UnknownAuthorityError
	var hostErr x509.HostnameError
	var invalidErr x509.CertificateInvalidError
	switch {
	case errors.As(err, &certErr), errors.As(err, &recErr), errors.As(err, &alertErr),
		errors.As(err, &unknownAuth), errors.As(err, &hostErr), errors.As(err, &invalidErr),
		strings.Contains(msg, "tls:"):
		return sample.TLS, msg
	case errors.As(err, &netErr) && netErr.Timeout():
		return sample.Timeout, msg
	case errors.Is(err, syscall.ECONNREFUSED):
		return sample.ConnRefused, msg
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE),
		errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return sample.ConnReset, msg
	}
	return sample.Other, msg
}

// validStatus reports a status code HTTP defines (RFC 9110 §15: 100 to
// 599). Any other is a malformed response, counted as sample.Other with
// malformedStatus's message rather than as a 5xx (999) or a success (099).
func validStatus(status int) bool { return status >= 100 && status <= 599 }

// malformedStatus is the error message of a status validStatus rejects,
// worded as the lean client's malformed-response errors are.
func malformedStatus(status int) string {
	return "malformed HTTP response: status " + strconv.Itoa(status) + " (not 100–599)"
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
