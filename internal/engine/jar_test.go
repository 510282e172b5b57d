package engine

import (
	"net/url"
	"testing"
)

// TestJarScopes checks the scopes a load test meets beyond one loopback
// host: Domain cookies shared with subdomains, host-only cookies not, and
// Secure cookies kept off plain http.
func TestJarScopes(t *testing.T) {
	u := func(s string) *url.URL {
		p, err := url.Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	var j cookieJar
	if !j.empty() || j.header(u("http://shop.example/")) != "" {
		t.Fatal("a new jar is not empty")
	}
	j.store(u("https://shop.example/login"), []string{
		"host=1; Path=/",
		"shared=1; Path=/; Domain=shop.example",
		"sec=1; Path=/; Secure",
		"other=1; Path=/; Domain=elsewhere.example",
		`quoted="a b"; Path=/`,
	})
	cases := []struct{ url, want string }{
		{"https://shop.example/", `host=1; shared=1; sec=1; quoted="a b"`},
		{"http://shop.example/", `host=1; shared=1; quoted="a b"`},
		{"https://api.shop.example/", "shared=1"},
		{"https://elsewhere.example/", ""},
		{"https://example/", ""},
	}
	for _, c := range cases {
		if got := j.header(u(c.url)); got != c.want {
			t.Errorf("%s gets %q, want %q", c.url, got, c.want)
		}
	}
	j.store(u("https://shop.example/"), []string{"host=; Max-Age=0; Path=/", "shared=; Path=/; Domain=shop.example; Expires=Thu, 01 Jan 1970 00:00:01 GMT"})
	if got := j.header(u("https://shop.example/")); got != `sec=1; quoted="a b"` {
		t.Errorf("after expiring two: %q", got)
	}
	j.reset()
	if !j.empty() || j.header(u("https://shop.example/")) != "" {
		t.Fatal("reset did not empty the jar")
	}
}
