package plan

import (
	"net/url"
	"slices"
	"testing"
)

func TestParseRedirectsAndMaxBody(t *testing.T) {
	runValid(t, []validCase{
		{"defaults", "t.yaml", head + getX, func(t *testing.T, p *Plan) {
			if r := req(t, p, 0, 0); r.MaxRedirects != DefaultMaxRedirects || r.MaxBody != DefaultMaxBody {
				t.Errorf("redirects %d, max body %d; want %d and %d", r.MaxRedirects, r.MaxBody, DefaultMaxRedirects, DefaultMaxBody)
			}
		}},
		{"top level and per step", "t.yaml", "redirects: 3\nmax_body: 512KiB\n" + head +
			"      - get: /a\n" +
			"      - get: /b\n        redirects: 0\n        max_body: 1048576\n" +
			"      - get: /c\n        max_body: \"2MiB\"\n" +
			"      - get: /d\n        max_body: 1.5KB\n" +
			"      - get: /e\n        max_body: 0\n", func(t *testing.T, p *Plan) {
			want := []struct {
				redirects int
				body      int64
			}{{3, 512 << 10}, {0, 1 << 20}, {3, 2 << 20}, {3, 1500}, {3, 0}}
			for i, w := range want {
				if r := req(t, p, 0, i); r.MaxRedirects != w.redirects || r.MaxBody != w.body {
					t.Errorf("step %d: redirects %d, max body %d; want %d and %d", i, r.MaxRedirects, r.MaxBody, w.redirects, w.body)
				}
			}
		}},
		{"units in any case", "t.yaml", "max_body: 1mib\n" + head + getX, func(t *testing.T, p *Plan) {
			if r := req(t, p, 0, 0); r.MaxBody != 1<<20 {
				t.Errorf("max body %d", r.MaxBody)
			}
		}},
	})
}

func TestParseAllowHosts(t *testing.T) {
	env := func(k string) (string, bool) {
		if k == "API" {
			return "API.example.com:8443", true
		}
		return "", false
	}
	src := "base_url: http://127.0.0.1:8080\nallow_hosts: [auth.example.com, '127.0.0.1:9000', '[::1]:8081', 'Login.Example.com', auth.example.com]\n" +
		"scenarios:\n  s:\n    rate: 1\n    duration: 1s\n    flow:\n" +
		"      - get: https://cdn.example.com/x\n" +
		"      - get: https://{{ env.API }}/v1/{{ vu }}\n" +
		"      - get: http://{{ pick(\"a\", \"b\") }}.example.com/x\n" +
		"      - get: /local\n"
	p, err := Parse("t.yaml", []byte(src), env)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"127.0.0.1:8080", "cdn.example.com", "api.example.com:8443", "auth.example.com", "127.0.0.1:9000", "[::1]:8081", "login.example.com"}
	if !slices.Equal(p.AllowHosts, want) {
		t.Errorf("AllowHosts %q, want %q", p.AllowHosts, want)
	}
	// the hosts requests go to, not allow_hosts': a loopback one's process is watched for its cgroup quota
	if want := []string{"http://127.0.0.1:8080", "https://cdn.example.com", "https://api.example.com:8443"}; !slices.Equal(p.Origins, want) {
		t.Errorf("Origins %q, want %q", p.Origins, want)
	}
	for _, c := range []struct {
		url  string
		want bool
	}{
		{"http://127.0.0.1:8080/y", true},
		{"http://127.0.0.1:8081/y", false}, // named with a port: that port only
		{"https://cdn.example.com/y", true},
		{"http://cdn.example.com:8080/y", true}, // named without a port: every port
		{"https://API.EXAMPLE.COM:8443/", true},
		{"https://api.example.com/", false},
		{"http://a.example.com/x", false}, // a templated host is not named
		{"http://auth.example.com/", true},
		{"http://[::1]:8081/", true},
		{"http://evil.example.net/", false},
		{"http://127.0.0.1:9000/", true},
		{"http://127.0.0.1/", false},
	} {
		u, _ := url.Parse(c.url)
		if got := p.HostAllowed(u); got != c.want {
			t.Errorf("HostAllowed(%s) = %v, want %v", c.url, got, c.want)
		}
	}
}
