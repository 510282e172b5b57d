package ws

import (
	"context"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/protocol"
	"github.com/loadlens/loadlens/internal/protocol/prototest"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/tmpl"
)

// TestSessionAnnouncesItsUpgrade: a session tells its VU once that its
// upgrade request is written (the engine's start gate then admits the next
// VU), and never when it wrote none; a stall while the TLS handshake waits
// ends the session at the step's timeout, not the handshake's.
func TestSessionAnnouncesItsUpgrade(t *testing.T) {
	mute, err := net.Listen("tcp", "127.0.0.1:0") // accepts, and never answers a Client Hello
	if err != nil {
		t.Fatal(err)
	}
	defer mute.Close()
	refused, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	refusedURL := "ws://" + refused.Addr().String() + "/"
	refused.Close()
	const timeout = 300 * time.Millisecond
	tests := []struct {
		name, url string
		announced int64
		kind      sample.Kind
		errHas    string
	}{
		{"an upgrade answered", serve(t, silent), 1, sample.OK, ""},
		{"a connection refused", refusedURL, 0, sample.ConnRefused, ""},
		{"a TLS handshake never answered", "wss://" + mute.Addr().String() + "/", 0, sample.Timeout, "no message within the timeout (300ms)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := plan.Session{URL: tmpl.Literal(tt.url), Duration: 100 * time.Millisecond, Timeout: timeout, MaxMessage: plan.DefaultMaxMessage}
			st, err := Protocol{}.Prepare(&s, prototest.Env(10*time.Second)) // the handshake's own timeout, far away
			if err != nil {
				t.Fatal(err)
			}
			sess := st.NewSession()
			if _, ok := sess.(protocol.Announcer); !ok {
				t.Fatal("a ws session is not a protocol.Announcer: the engine's gate would not wait for its upgrade")
			}
			defer sess.Close()
			vu := prototest.NewVU()
			began := time.Now()
			sess.Run(context.Background(), vu, began)
			r := vu.Samples[0]
			if got := vu.Announced(); got != tt.announced {
				t.Errorf("announced %d times, want %d", got, tt.announced)
			}
			if r.Kind != tt.kind || !strings.Contains(r.Err, tt.errHas) {
				t.Errorf("kind %v (%q), want %v containing %q", r.Kind, r.Err, tt.kind, tt.errHas)
			}
			if took := time.Since(began); took > 5*time.Second { // half the handshake's timeout
				t.Errorf("the session took %v: the stall did not end its dial", took)
			}
		})
	}
}
