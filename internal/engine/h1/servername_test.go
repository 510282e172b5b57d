package h1

import "testing"

// TestServerName: the TLS server name of an authority has neither its port
// nor an IPv6 literal's brackets, as net/http names it ("[::1]:8443" was
// verified as "[::1]", which no certificate names).
func TestServerName(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"example.com", "example.com"},
		{"example.com:8443", "example.com"},
		{"127.0.0.1:443", "127.0.0.1"},
		{"[::1]:8443", "::1"},
		{"[::1]", "::1"},
	} {
		if got := ServerName(c.in); got != c.want {
			t.Errorf("ServerName(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
