package otlp

import (
	"crypto/rand"
	"crypto/subtle"
	"errors"
	"net"
	"net/http"
	"strconv"
	"strings"
	"unicode"
)

// MinTokenLength is the shortest token accepted, as for the dashboard: a
// guessable one would let anyone on the network feed the run's findings.
const MinTokenLength = 16

// CheckToken reports what is wrong with a receiver token chosen by the
// user: too short, or with characters a header would mangle.
func CheckToken(token string) error {
	if len(token) < MinTokenLength {
		return errors.New("a traces token needs at least " + strconv.Itoa(MinTokenLength) + " characters")
	}
	for _, c := range token {
		if c > unicode.MaxASCII || !unicode.IsPrint(c) || strings.ContainsRune(` ;,"\%`, c) {
			return errors.New("a traces token may hold printable ASCII only, without spaces, quotes, commas, semicolons, percent signs or backslashes")
		}
	}
	return nil
}

// newToken returns a random token of 26 base32 characters (128 bits).
func newToken() string { return rand.Text() }

// isLoopback reports whether a listener's address is reachable only from
// this machine.
func isLoopback(a net.Addr) bool {
	tcp, ok := a.(*net.TCPAddr)
	return ok && tcp.IP.IsLoopback()
}

// HeadersEnv is the OTEL_EXPORTER_OTLP_HEADERS value that sends token, as
// the OpenTelemetry SDKs read it (the value percent-encoded).
func HeadersEnv(token string) string { return "Authorization=Bearer%20" + token }

// guard admits an export as the dashboard admits a browser. Without a
// token (loopback only) it refuses Host names other than localhost, so that
// a web page elsewhere cannot post spans through DNS rebinding. With one,
// every export must carry it as a Bearer token: missing is 401, wrong 403
// (compared in constant time), before any of the body is read.
func (r *Receiver) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		token := r.Token()
		if token == "" {
			host, _, err := net.SplitHostPort(req.Host)
			if err != nil {
				host = req.Host
			}
			if host != "localhost" && net.ParseIP(host) == nil {
				r.reject()
				http.Error(w, "loadlens OTLP receiver: send to it by IP address or as localhost", http.StatusForbidden)
				return
			}
			next.ServeHTTP(w, req)
			return
		}
		if status, msg := checkBearer(req.Header.Get("Authorization"), token); status != 0 {
			r.reject()
			if status == http.StatusUnauthorized {
				w.Header().Set("WWW-Authenticate", `Bearer realm="loadlens OTLP receiver"`)
			}
			http.Error(w, msg, status)
			return
		}
		next.ServeHTTP(w, req)
	})
}

// checkBearer judges an Authorization value against token: 0 when it
// carries it, else the HTTP status and message of the refusal.
func checkBearer(auth, token string) (int, string) {
	got, ok := strings.CutPrefix(auth, "Bearer ")
	switch {
	case !ok || got == "":
		return http.StatusUnauthorized, "loadlens OTLP receiver: this receiver is reachable from other hosts and takes only exports with the token loadlens printed: " +
			"set OTEL_EXPORTER_OTLP_HEADERS=Authorization=Bearer%20<token> in the exporting service"
	case subtle.ConstantTimeCompare([]byte(got), []byte(token)) != 1:
		return http.StatusForbidden, "loadlens OTLP receiver: wrong token"
	}
	return 0, ""
}
