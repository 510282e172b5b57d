package sample

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestTargetMessage(t *testing.T) {
	hikari := "HikariPool-1 - Connection is not available, request timed out after 30000ms"
	long := strings.Repeat("ab ", 400)
	tests := []struct {
		name string
		body string
		cut  bool
		want string
	}{
		{"spring json prefers message", `{"timestamp":"2026-11-30T10:00:00Z","status":500,"error":"Internal Server Error","message":"` + hikari + `","path":"/orders"}`, false, hikari},
		{"empty message falls to error", `{"status":500,"error":"Internal Server Error","message":""}`, false, "Internal Server Error"},
		{"problem json detail", `{"type":"about:blank","title":"Service Unavailable","detail":"pool exhausted"}`, false, "pool exhausted"},
		{"nested error object", `{"error":{"code":503,"message":"backend down"}}`, false, "backend down"},
		{"case of key", `{"Message":"An error has occurred."}`, false, "An error has occurred."},
		{"json without such field is the text", `{"code":7}`, false, `{"code":7}`},
		{"json cut mid-object keeps the field read", `{"message":"db locked","trace":"at com.x.Y(Y.java:1) at com.x.Z`, true, "db locked"},
		{"plain text whitespace collapsed", "  upstream\tconnect error\r\n\r\n or disconnect  ", false, "upstream connect error or disconnect"},
		{"control characters escaped", "bad\x1b[31m red\x00", false, `bad\x1b[31m red\x00`},
		{"invalid utf-8 escaped", "caf\xe9 \xff", false, `caf\xe9 \xff`},
		{"bidi override escaped", "abc\u202edef", false, `abc\u202edef`},
		{"empty", "", false, ""},
		{"blank", " \r\n\t", false, ""},
		{"body went on", "Service Unavailable", true, "Service Unavailable…"},
		{"json string message cleaned", `{"message":"line1\nline2\u0007"}`, false, `line1 line2\a`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := TargetMessage([]byte(tt.body), tt.cut); got != tt.want {
				t.Errorf("TargetMessage(%q, %v) = %q; want %q", tt.body, tt.cut, got, tt.want)
			}
		})
	}
	t.Run("huge is bounded", func(t *testing.T) {
		for _, in := range []string{long, strings.Repeat("é", 600), strings.Repeat("\x00", 600), `{"message":"` + long + `"}`} {
			got := TargetMessage([]byte(in), false)
			if len(got) > MaxTargetMessage || !utf8.ValidString(got) || !strings.HasSuffix(got, "…") {
				t.Errorf("TargetMessage of %d bytes: %d bytes, valid %v, %q…", len(in), len(got), utf8.ValidString(got), got[:20])
			}
		}
	})
	t.Run("exactly the bound is not cut", func(t *testing.T) {
		in := strings.Repeat("x", MaxTargetMessage)
		if got := TargetMessage([]byte(in), false); got != in {
			t.Errorf("a %d-byte message came back as %d bytes", len(in), len(got))
		}
	})
}

func TestShortStatus(t *testing.T) {
	tests := []struct {
		status int
		msg    string
		want   string
	}{
		{500, "500 Internal Server Error: HikariPool-1 - Connection is not available", "500: HikariPool-1 - Connection is not available"},
		{500, "500 Internal Server Error", "500 Internal Server Error"},
		{503, "503 Service Unavailable: ", "503 Service Unavailable: "},
		{0, "dial tcp: connection refused", "dial tcp: connection refused"},
		{404, "unexpected status 404 Not Found: x", "unexpected status 404 Not Found: x"},
		{14, "UNAVAILABLE: upstream reset", "UNAVAILABLE: upstream reset"},
	}
	for _, tt := range tests {
		if got := ShortStatus(tt.status, tt.msg); got != tt.want {
			t.Errorf("ShortStatus(%d, %q) = %q; want %q", tt.status, tt.msg, got, tt.want)
		}
	}
}
