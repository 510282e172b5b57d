package live

import (
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/loadlens/loadlens/internal/access"
)

// get fetches path from the dashboard at base with the given client,
// headers and Host, returning the status and the start of the body.
func get(t *testing.T, c *http.Client, rawURL, host string, header http.Header) (int, string) {
	t.Helper()
	req, err := http.NewRequest("GET", rawURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	if host != "" {
		req.Host = host
	}
	for k, v := range header {
		req.Header[k] = v
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	// The event stream never ends while the run lasts: read its start only.
	b := make([]byte, 256)
	n, _ := io.ReadAtLeast(resp.Body, b, 1)
	return resp.StatusCode, string(b[:n])
}

func startWith(t *testing.T, addr, token string) *Dashboard {
	t.Helper()
	d, err := StartDashboard(addr, []byte(`{"name":"shop"}`), token)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

// local is the dashboard's address on loopback, whatever it listens on.
func local(d *Dashboard) string {
	return "http://127.0.0.1:" + strconv.Itoa(d.ln.Addr().(*net.TCPAddr).Port) + "/"
}

func TestLoopbackDashboardNeedsNoToken(t *testing.T) {
	d := startWith(t, "127.0.0.1:0", "")
	if d.Token() != "" || strings.Contains(d.URL(), "token") || !strings.HasPrefix(d.URL(), "http://127.0.0.1:") {
		t.Fatalf("URL %q, token %q: want a plain loopback URL", d.URL(), d.Token())
	}
	for _, path := range []string{"", "events"} {
		if code, _ := get(t, http.DefaultClient, d.URL()+path, "", nil); code != http.StatusOK {
			t.Errorf("GET /%s: %d, want 200", path, code)
		}
	}
	// Without a token, only IP addresses and localhost are served (DNS rebinding).
	if code, _ := get(t, http.DefaultClient, d.URL(), "evil.example:80", nil); code != http.StatusForbidden {
		t.Errorf("Host evil.example: %d, want 403", code)
	}
}

func TestDashboardOnEveryInterfaceAsksForAToken(t *testing.T) {
	d := startWith(t, "0.0.0.0:0", "")
	tok := d.Token()
	if len(tok) < access.MinTokenLength || CheckToken(tok) != nil {
		t.Fatalf("made-up token %q", tok)
	}
	u, err := url.Parse(d.URL())
	if err != nil {
		t.Fatal(err)
	}
	if ip := net.ParseIP(u.Hostname()); ip != nil && ip.IsUnspecified() || u.Query().Get("token") != tok {
		t.Fatalf("printed URL %q: want a reachable host and the token", d.URL())
	}
	jar, _ := cookiejar.New(nil)
	browser := &http.Client{Jar: jar}
	// The printed URL works as printed, and the page's event stream then
	// goes by the cookie it set.
	if code, body := get(t, browser, d.URL(), "", nil); code != http.StatusOK || !strings.Contains(body, "<!DOCTYPE html>") {
		t.Fatalf("GET the printed URL: %d %q", code, body)
	}
	events := "http://" + u.Host + "/events"
	if code, body := get(t, browser, events, "", nil); code != http.StatusOK || !strings.Contains(body, "event: history") {
		t.Errorf("GET /events with the cookie: %d %q", code, body)
	}
	tests := []struct {
		name   string
		url    string
		header http.Header
		host   string
		want   int
	}{
		{"page without a token", local(d), nil, "", http.StatusUnauthorized},
		{"events without a token", local(d) + "events", nil, "", http.StatusUnauthorized},
		{"wrong token", local(d) + "?token=" + strings.Repeat("x", len(tok)), nil, "", http.StatusForbidden},
		{"token of another length", local(d) + "events?token=short", nil, "", http.StatusForbidden},
		{"wrong cookie", local(d) + "events", http.Header{"Cookie": {"loadlens_dashboard_" + u.Port() + "=nope"}}, "", http.StatusForbidden},
		{"token on the events", local(d) + "events?token=" + tok, nil, "", http.StatusOK},
		{"bearer token", local(d) + "events", http.Header{"Authorization": {"Bearer " + tok}}, "", http.StatusOK},
		{"any host name with the token", local(d) + "?token=" + tok, nil, "loadtest-box.internal:80", http.StatusOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if code, _ := get(t, http.DefaultClient, tt.url, tt.host, tt.header); code != tt.want {
				t.Errorf("%d, want %d", code, tt.want)
			}
		})
	}
}

func TestGivenTokenIsRequiredEvenOnLoopback(t *testing.T) {
	const tok = "correct-horse-battery-staple"
	d := startWith(t, "127.0.0.1:0", tok)
	if d.Token() != tok || !strings.HasSuffix(d.URL(), "/?token="+tok) {
		t.Fatalf("URL %q", d.URL())
	}
	if code, _ := get(t, http.DefaultClient, local(d), "", nil); code != http.StatusUnauthorized {
		t.Errorf("without the token: %d, want 401", code)
	}
	if code, _ := get(t, http.DefaultClient, d.URL(), "", nil); code != http.StatusOK {
		t.Errorf("with the token: %d, want 200", code)
	}
}

func TestCheckToken(t *testing.T) {
	tests := []struct {
		token string
		ok    bool
	}{
		{"0123456789abcdef", true},
		{"short", false},
		{"with a space in it!", false},
		{`quote"quote"quote"`, false},
		{"semi;colon;semi;colon", false},
		{"nön-ascii-töken-here", false},
	}
	for _, tt := range tests {
		if err := CheckToken(tt.token); (err == nil) != tt.ok {
			t.Errorf("CheckToken(%q) = %v", tt.token, err)
		}
	}
	if _, err := StartDashboard("127.0.0.1:0", nil, "short"); err == nil || !strings.Contains(err.Error(), "at least 16") {
		t.Errorf("a short token was accepted: %v", err)
	}
}

func TestURLHost(t *testing.T) {
	bound := func(ip string) net.Addr { return &net.TCPAddr{IP: net.ParseIP(ip), Port: 8089} }
	tests := []struct {
		addr  string
		bound net.Addr
		want  string
	}{
		{"127.0.0.1:0", bound("127.0.0.1"), "127.0.0.1"},
		{"localhost:0", bound("127.0.0.1"), "localhost"},
		{"loadtest-box:8089", bound("10.0.0.5"), "loadtest-box"},
		{"10.0.0.5:8089", bound("10.0.0.5"), "10.0.0.5"},
		{"[::1]:0", bound("::1"), "::1"},
	}
	for _, tt := range tests {
		if got := urlHost(tt.addr, tt.bound); got != tt.want {
			t.Errorf("urlHost(%q) = %q, want %q", tt.addr, got, tt.want)
		}
	}
	for _, all := range []string{"0.0.0.0", "::"} {
		got := urlHost(net.JoinHostPort(all, "0"), bound(all))
		if ip := net.ParseIP(got); got == "" || ip != nil && (ip.IsUnspecified() || ip.IsLoopback()) {
			t.Errorf("urlHost(%s) = %q: want an address other machines can reach", all, got)
		}
	}
}
