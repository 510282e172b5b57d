package otlp

import (
	"crypto/subtle"
	"net/http"
	"strings"

	"github.com/loadlens/loadlens/internal/access"
)

// CheckToken reports what is wrong with a receiver token chosen by the
// user: too short, or with characters a header would mangle.
func CheckToken(token string) error {
	return access.CheckToken(token, "a traces token", `;,"\%`, "quotes, commas, semicolons, percent signs or backslashes")
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
			if !access.LocalHost(req) {
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
