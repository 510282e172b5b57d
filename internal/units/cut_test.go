package units

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestCut(t *testing.T) {
	tests := []struct {
		name, in string
		width    int
		want     string
	}{
		{"fits", "connection refused", 40, "connection refused"},
		{"keeps the host and the fix", "redirect to localhost:28411 refused: the test does not name that host; add it to allow_hosts", 57,
			"redirect to localhost:28411 … add it to allow_hosts"},
		{"never inside a field name", `malformed HTTP response: Content-Length "-5" is not a length`, 58,
			`malformed HTTP … Content-Length "-5" is not a length`},
		{"keeps both values", `malformed HTTP response: two different Content-Length values, "2" and "5"`, 58,
			`malformed … different Content-Length values, "2" and "5"`},
		{"a long value is cut inside, the end kept", `GET "http://127.0.0.1:8080/a/very/long/path/that/goes/on/and/on/forever": connection refused; is the target up?`, 70,
			`GET "http://127.0…d/on/forever": connection refused; is the target up?`},
		{"a long field name is dropped whole, never cut inside", "malformed response: header X-Forwarded-Client-Certificate-Chain is too long; raise the limit", 50,
			"malformed response: header … raise the limit"},
		{"one word too long", strings.Repeat("x", 30), 10, "xxxx…xxxxx"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Cut(tt.in, tt.width)
			if got != tt.want {
				t.Errorf("Cut(%q, %d)\n= %q\nwant %q", tt.in, tt.width, got, tt.want)
			}
			if n := utf8.RuneCountInString(got); n > tt.width {
				t.Errorf("%d columns, more than %d", n, tt.width)
			}
		})
	}
}
