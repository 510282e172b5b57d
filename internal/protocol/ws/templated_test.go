package ws

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/protocol/prototest"
	"github.com/loadlens/loadlens/internal/sample"
)

// TestTemplatedURL: a ws: step whose whole URL is a template dials the
// ws:// or wss:// URL its value is, as the same URL written literally
// does (it was sent as "/ws://…": "malformed ws or wss URL"); a value per
// session that is no URL fails that session with an error naming the
// step's kind of URL rather than the library's.
func TestTemplatedURL(t *testing.T) {
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		defer c.CloseNow()
		if r.URL.Path == "/chat" {
			chat(c, r)
		}
	})
	plain := httptest.NewServer(handler)
	defer plain.Close()
	secure := httptest.NewTLSServer(handler)
	defer secure.Close()
	trusted := x509.NewCertPool()
	trusted.AddCert(secure.Certificate())
	tests := []struct {
		name, url, target string
		want              sample.Kind
		err               string // the sample's error; "": none
	}{
		{"ws:// value", "{{ env.TARGET }}", strings.Replace(plain.URL, "http://", "ws://", 1) + "/chat", sample.OK, ""},
		{"wss:// value", "{{ env.TARGET }}", strings.Replace(secure.URL, "https://", "WSS://", 1) + "/chat", sample.OK, ""},
		{"a value per session that is no URL", "{{ vu }}", "", sample.Other,
			`bad URL "/0": a ws: step's URL is ws://, wss://, http:// or https:// and a host`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "scenarios:\n  s:\n    rate: 1\n    duration: 1s\n    flow:\n      - ws: '" + tt.url + "'\n        max_messages: 1\n"
			p, err := plan.Parse("t.yaml", []byte(src), func(string) (string, bool) { return tt.target, true })
			if err != nil {
				t.Fatal(err)
			}
			env := prototest.Env(5 * time.Second)
			env.TLS = func() *tls.Config { return &tls.Config{RootCAs: trusted} }
			st, err := Protocol{}.Prepare(p.Scenarios[0].Flow[0].Session, env)
			if err != nil {
				t.Fatal(err)
			}
			sess := st.NewSession()
			defer sess.Close()
			vu := prototest.NewVU()
			sess.Run(context.Background(), vu, time.Now())
			if len(vu.Samples) != 1 {
				t.Fatalf("%d samples, want 1", len(vu.Samples))
			}
			if r := vu.Samples[0]; r.Kind != tt.want || r.Err != tt.err {
				t.Errorf("kind %v, error %q; want %v, %q", r.Kind, r.Err, tt.want, tt.err)
			}
			if tt.want == sample.OK && vu.Facts[0].MsgsReceived != 1 {
				t.Errorf("%d messages received, want the welcome", vu.Facts[0].MsgsReceived)
			}
		})
	}
}
