package access

import (
	"net"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestCheckToken(t *testing.T) {
	for _, tc := range []struct {
		token, want string
	}{
		{"0123456789abcdef", ""},
		{"0123456789abcde", "needs at least 16 characters"},
		{"0123456789abcdef;", "without spaces, quotes or semicolons"},
		{"0123456789 abcdef", "without spaces"},
		{"0123456789abcdéf", "printable ASCII only"},
	} {
		err := CheckToken(tc.token, "a token", `;"`, "quotes or semicolons")
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("CheckToken(%q) = %v, want %q", tc.token, err, tc.want)
		}
	}
	if a, b := NewToken(), NewToken(); len(a) < MinTokenLength || a == b || CheckToken(a, "a token", `;"`, "") != nil {
		t.Errorf("NewToken gave %q and %q: want two different valid tokens", a, b)
	}
}

func TestLocalHostAndLoopback(t *testing.T) {
	for host, want := range map[string]bool{
		"127.0.0.1:8080": true, "localhost:8080": true, "[::1]:80": true, "10.0.0.5": true,
		"evil.example:8080": false, "localhost.evil.example": false,
	} {
		r := httptest.NewRequest("GET", "/", nil)
		r.Host = host
		if got := LocalHost(r); got != want {
			t.Errorf("LocalHost(%s) = %v, want %v", host, got, want)
		}
	}
	if !IsLoopback(&net.TCPAddr{IP: net.IPv4(127, 0, 0, 1)}) || IsLoopback(&net.TCPAddr{IP: net.IPv4(10, 0, 0, 1)}) {
		t.Error("IsLoopback does not tell 127.0.0.1 from 10.0.0.1")
	}
}
