package live

import (
	"crypto/subtle"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"

	"github.com/loadlens/loadlens/internal/access"
)

// CheckToken reports what is wrong with a dashboard token chosen by the
// user: too short, or with characters a URL or a cookie would mangle.
func CheckToken(token string) error {
	return access.CheckToken(token, "a dashboard token", `;,"\`, "quotes, commas, semicolons or backslashes")
}

// guard admits a request to a dashboard. Without a token (loopback only)
// it refuses Host names other than localhost, so that a web page elsewhere
// cannot read the dashboard through DNS rebinding. With a token, every
// request must carry it: as ?token= (the printed URL, after which a cookie
// carries it for the page's event stream) or as a Bearer token; a missing
// token is 401, a wrong one 403, compared in constant time.
func (d *Dashboard) guard(next http.Handler) http.Handler {
	if d.token == "" {
		return localOnly(next)
	}
	cookie := "loadlens_dashboard_" + strconv.Itoa(d.ln.Addr().(*net.TCPAddr).Port) // cookies ignore ports: one per dashboard
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got, fromQuery := r.URL.Query().Get("token"), true
		if got == "" {
			fromQuery = false
			if v, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok {
				got = v
			} else if c, err := r.Cookie(cookie); err == nil {
				got = c.Value
			}
		}
		switch {
		case got == "":
			w.Header().Set("WWW-Authenticate", `Bearer realm="loadlens dashboard"`)
			http.Error(w, "loadlens dashboard: open the URL loadlens printed, with its ?token=", http.StatusUnauthorized)
			return
		case subtle.ConstantTimeCompare([]byte(got), []byte(d.token)) != 1:
			http.Error(w, "loadlens dashboard: wrong token", http.StatusForbidden)
			return
		}
		if fromQuery {
			http.SetCookie(w, &http.Cookie{Name: cookie, Value: d.token, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
		}
		next.ServeHTTP(w, r)
	})
}

// localOnly refuses requests whose Host is a name other than localhost,
// so that a web page elsewhere cannot read the dashboard through DNS
// rebinding; browsers on this machine use an IP address or localhost.
func localOnly(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !access.LocalHost(r) {
			http.Error(w, "loadlens dashboard: open it by IP address or as localhost", http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// reachableHost returns the host a browser elsewhere can use for a
// dashboard listening on every interface: this machine's first global
// unicast address (IPv4 first), else its name.
func reachableHost() string {
	var v6 string
	ifaces, _ := net.Interfaces()
	for _, ifc := range ifaces {
		if ifc.Flags&net.FlagUp == 0 || ifc.Flags&net.FlagLoopback != 0 {
			continue
		}
		addrs, _ := ifc.Addrs()
		for _, a := range addrs {
			ipn, ok := a.(*net.IPNet)
			switch {
			case !ok || !ipn.IP.IsGlobalUnicast():
			case ipn.IP.To4() != nil:
				return ipn.IP.String()
			case v6 == "":
				v6 = ipn.IP.String()
			}
		}
	}
	if v6 != "" {
		return v6
	}
	if name, err := os.Hostname(); err == nil && name != "" {
		return name
	}
	return "localhost"
}
