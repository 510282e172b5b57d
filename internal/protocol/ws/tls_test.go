package ws

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/protocol"
	"github.com/loadlens/loadlens/internal/protocol/prototest"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/tmpl"
)

// TestSessionOverTLS: a wss:// session goes through the step's own TLS
// dial, which buffers the upgrade request above TLS and counts the bytes
// below it: its messages are echoed, its bytes are the TLS records the
// server read and wrote (give or take a closing alert), and a certificate the configuration does not
// trust fails the session.
func TestSessionOverTLS(t *testing.T) {
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		defer c.CloseNow()
		echo(c, r)
	}))
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused certificate's handshake error
	var counts *prototest.Counts
	srv.Listener, counts = prototest.CountBytes(srv.Listener)
	srv.StartTLS()
	defer srv.Close()
	trusted := x509.NewCertPool()
	trusted.AddCert(srv.Certificate())
	for _, tt := range []struct {
		name  string
		roots *x509.CertPool
		want  sample.Kind
	}{
		{"the server's certificate trusted", trusted, sample.OK},
		{"an unknown authority", x509.NewCertPool(), sample.TLS},
	} {
		t.Run(tt.name, func(t *testing.T) {
			read0, written0 := counts.Read.Load(), counts.Written.Load()
			url := strings.Replace(srv.URL, "https://", "wss://", 1)
			s := plan.Session{URL: tmpl.Literal(url), Timeout: 5 * time.Second, MaxMessage: plan.DefaultMaxMessage,
				MaxMessages: 2, Send: []plan.Send{text("one"), text("two")}}
			env := protocol.Env{Dialer: &net.Dialer{Timeout: 5 * time.Second}, HandshakeTimeout: 5 * time.Second,
				TLS: func() *tls.Config { return &tls.Config{RootCAs: tt.roots} }}
			st, err := Protocol{}.Prepare(&s, env)
			if err != nil {
				t.Fatal(err)
			}
			sess := st.NewSession()
			defer sess.Close()
			vu := prototest.NewVU()
			sess.Run(context.Background(), vu, time.Now())
			r := vu.Samples[0]
			if r.Kind != tt.want {
				t.Fatalf("kind %v (%s), want %v", r.Kind, r.Err, tt.want)
			}
			if tt.want != sample.OK {
				if !strings.Contains(r.Err, "certificate") {
					t.Errorf("error %q does not name the certificate", r.Err)
				}
				return
			}
			if got := vu.Facts[0].MsgsReceived; got != 2 {
				t.Errorf("%d messages received, want the 2 echoed", got)
			}
			// Either side's TLS close_notify (one record) may go unread.
			const alert = 64
			if read := counts.ReadAtLeast(read0+r.Sent-alert, 5*time.Second) - read0; r.Sent < read || r.Sent > read+alert {
				t.Errorf("sent %d B, the server read %d B", r.Sent, read)
			}
			if written := counts.WrittenAtLeast(written0+r.Received, 5*time.Second) - written0; r.Received > written || r.Received < written-alert {
				t.Errorf("received %d B, the server wrote %d B", r.Received, written)
			}
		})
	}
}
