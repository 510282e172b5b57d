package mock

import (
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
)

// adminCall is one request to the admin API: what a web page, a DNS
// rebinding or a user's curl sends.
type adminCall struct {
	name, method, path, host, origin, ctype, auth, body string
	status                                              int
}

// do sends c to the mock at base with client, returning the status and answer.
func (c adminCall) do(t *testing.T, client *http.Client, base string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(c.method, base+c.path, strings.NewReader(c.body))
	if c.host != "" {
		req.Host = c.host
	}
	for k, v := range map[string]string{"Origin": c.origin, "Content-Type": c.ctype, "Authorization": c.auth} {
		if v != "" {
			req.Header.Set(k, v)
		}
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// latencyOf returns what the admin API says of route flaky's latency.
func latencyOf(t *testing.T, base string) string {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, base+"/__mock/routes/flaky", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

// TestAdminRefusesWebPages: on loopback, without a token, the admin API
// refuses what a web page can make a browser send — through DNS
// rebinding (another Host), from another origin, or a text/plain or form
// POST — and still takes curl and loadlens; over HTTP/1.1 and
// HTTP/2 over TLS (net/http) alike.
func TestAdminRefusesWebPages(t *testing.T) {
	s := startServer(t, serverConfig)
	if s.AdminToken() != "" {
		t.Fatal("a loopback mock asks for a token nobody gave")
	}
	change := `{"latency": "700ms"}`
	for proto, cl := range clients(t, s) {
		if proto == "h2c" {
			continue
		}
		own := strings.TrimPrefix(strings.TrimPrefix(cl.base, "http://"), "https://")
		for _, c := range []adminCall{
			{"DNS rebinding: the issue's text/plain POST", "POST", "/__mock/routes/flaky", "evil.example.com", "http://evil.example.com", "text/plain", "", change, 403},
			{"DNS rebinding: a read", "GET", "/__mock/routes", "evil.example.com:80", "", "", "", "", 403},
			{"another origin", "PUT", "/__mock/routes/flaky", "", "http://evil.example.com", "application/json", "", change, 403},
			{"an opaque origin", "POST", "/__mock/reset", "", "null", "", "", "", 403},
			{"a text/plain POST", "POST", "/__mock/routes/flaky", "", "", "text/plain", "", change, 415},
			{"a form POST", "POST", "/__mock/routes/flaky", "", "", "application/x-www-form-urlencoded", "", change, 415},
			{"the same origin", "PUT", "/__mock/routes/flaky", "", "http://" + own, "application/json", "", `{"latency": "2ms"}`, 200},
			{"curl's PUT", "PUT", "/__mock/routes/flaky", "", "", "application/x-www-form-urlencoded", "", `{"latency": "3ms"}`, 200},
			{"curl -X POST reset", "POST", "/__mock/reset", "", "", "", "", "", 200},
			{"localhost reads the metrics", "GET", "/__mock/metrics", "localhost:1234", "", "", "", "", 200},
		} {
			before := latencyOf(t, "http://"+s.Addr())
			code, body := c.do(t, cl.c, cl.base)
			if code != c.status {
				t.Errorf("%s, %s: status %d (%s), want %d", proto, c.name, code, strings.TrimSpace(body), c.status)
			}
			if c.status != 200 && latencyOf(t, "http://"+s.Addr()) != before {
				t.Errorf("%s, %s: refused, yet the route changed", proto, c.name)
			}
		}
	}
}

// TestAdminOffLoopbackNeedsAToken: a mock other hosts can reach makes up a
// token and requires it of every admin request but a scrape of its
// metrics, whatever the Host; a given token must be long enough.
func TestAdminOffLoopbackNeedsAToken(t *testing.T) {
	s := startServer(t, strings.Replace(serverConfig, "listen: 127.0.0.1:0\ntls: {listen: 127.0.0.1:0}", "listen: 0.0.0.0:0", 1))
	token := s.AdminToken()
	if len(token) < MinAdminToken {
		t.Fatalf("token %q: a mock other hosts reach made up none", token)
	}
	_, port, _ := net.SplitHostPort(s.Addr())
	base := "http://127.0.0.1:" + port
	for _, c := range []adminCall{
		{"no token", "PUT", "/__mock/routes/flaky", "", "", "application/json", "", `{"latency": "9ms"}`, 401},
		{"a wrong token", "GET", "/__mock/routes", "", "", "", "Bearer " + strings.Repeat("x", len(token)), "", 403},
		{"the token", "PUT", "/__mock/routes/flaky", "mock.example.com:8081", "", "application/json", "Bearer " + token, `{"latency": "4ms"}`, 200},
		{"a scrape of the metrics", "GET", "/__mock/metrics", "mock.svc:8081", "", "", "", "", 200},
	} {
		if code, body := c.do(t, http.DefaultClient, base); code != c.status {
			t.Errorf("%s: status %d (%s), want %d", c.name, code, strings.TrimSpace(body), c.status)
		}
	}
	cfg, err := Parse("m.yaml", []byte(serverConfig), nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg.AdminToken = "short"
	if err := New(cfg).Listen(); err == nil || !strings.Contains(err.Error(), "at least 16") {
		t.Errorf("a short token: %v", err)
	}
}
