package engine

import (
	"bytes"
	"compress/gzip"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/sample"
)

// TestFailuresKeepWhatTheTargetSaid: an error response's body reaches the
// failure's message, cleaned and bounded, with either client; a success's
// body never does, a huge one is still read to its end (Received), and a
// kept error body is not a truncated body.
func TestFailuresKeepWhatTheTargetSaid(t *testing.T) {
	hikari := "HikariPool-1 - Connection is not available, request timed out after 30000ms"
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(`{"message":"compressed pool exhausted"}`))
	zw.Close()
	huge := strings.Repeat("stack frame ", 100_000)
	cases := []struct {
		name, head, body string
		needBody         bool   // a check reads the body: the step keeps it (max_body)
		want             string // the message; a trailing "…" means a prefix then the ellipsis
	}{
		{"spring json", "HTTP/1.1 500 Internal Server Error\r\nContent-Type: application/json",
			`{"timestamp":"2026-11-30T10:00:00Z","status":500,"error":"Internal Server Error","message":"` + hikari + `","path":"/orders"}`, false,
			"500 Internal Server Error: " + hikari},
		{"spring json, body kept for a check", "HTTP/1.1 500 Internal Server Error\r\nContent-Type: application/json",
			`{"status":500,"error":"Internal Server Error","message":"` + hikari + `"}`, true, "500 Internal Server Error: " + hikari},
		{"plain text", "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain", "upstream connect error\n or disconnect/reset before headers\n", false,
			"503 Service Unavailable: upstream connect error or disconnect/reset before headers"},
		{"binary", "HTTP/1.1 500 Internal Server Error\r\nContent-Type: application/octet-stream", "\x00\x01\xff\xfeok", false,
			`500 Internal Server Error: \x00\x01\xff\xfeok`},
		{"gzip", "HTTP/1.1 500 Internal Server Error\r\nContent-Encoding: gzip", gz.String(), false,
			"500 Internal Server Error: compressed pool exhausted"},
		{"huge", "HTTP/1.1 500 Internal Server Error", huge, false, "500 Internal Server Error: stack frame stack frame…"},
		{"empty", "HTTP/1.1 502 Bad Gateway", "", false, "502 Bad Gateway"},
		{"success", "HTTP/1.1 200 OK", `{"message":"all good"}`, false, ""},
	}
	for _, c := range cases {
		for _, cl := range clients() {
			t.Run(c.name+"/"+cl.name, func(t *testing.T) {
				url := rawServer(t, c.head, c.body)
				step := get(url)
				step.Request.NeedBody = c.needBody
				s := scenario(plan.Load{Model: plan.Iterations, VUCount: 1, Count: 2, MaxDuration: time.Minute}, step)
				rec, _ := runPlan(t, &plan.Plan{Scenarios: []*plan.Scenario{s}}, cl.opts)
				if len(rec.reqs) != 2 {
					t.Fatalf("%d samples, want 2", len(rec.reqs))
				}
				for _, q := range rec.reqs {
					checkSaid(t, q, c.want, len(c.body))
				}
			})
		}
	}
}

// checkSaid checks one sample's message against want (a trailing "…":
// its prefix, then the ellipsis) and its bounds.
func checkSaid(t *testing.T, q sample.Request, want string, bodyLen int) {
	t.Helper()
	prefix, cut := strings.CutSuffix(want, "…")
	switch {
	case cut && (!strings.HasPrefix(q.Err, prefix) || !strings.HasSuffix(q.Err, "…")):
		t.Errorf("message %.80q…; want it to start %q and end in …", q.Err, prefix)
	case !cut && q.Err != want:
		t.Errorf("message %q; want %q", q.Err, want)
	case len(q.Err) > sample.MaxTargetMessage+len("500 Internal Server Error: ") || !utf8.ValidString(q.Err):
		t.Errorf("message of %d bytes (valid UTF-8: %v)", len(q.Err), utf8.ValidString(q.Err))
	case q.Truncated:
		t.Error("a kept error body counted as a truncated body")
	case q.Received < int64(bodyLen):
		t.Errorf("received %d bytes of a %d-byte body: the rest must still be read", q.Received, bodyLen)
	}
}
