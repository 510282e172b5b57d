package ws

import (
	"bufio"
	"context"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/protocol/prototest"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/tmpl"
)

// TestEndWhileTheUpgradeWaits: a server that accepts the connection and
// never answers the upgrade; the run's end and a stall end the session at
// once, not when the handshake timeout (a minute here) runs out, which is
// what the library's dial waited for whatever its context said.
func TestEndWhileTheUpgradeWaits(t *testing.T) {
	for _, tt := range []struct {
		name    string
		timeout time.Duration // the step's stall timeout
		cancel  bool          // the run ends once the server has the connection
		want    sample.Kind
	}{
		{"the run's end", time.Minute, true, sample.Interrupted},
		{"a stall", 200 * time.Millisecond, false, sample.Timeout},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			defer ln.Close()
			accepted := make(chan net.Conn, 1)
			go func() {
				c, err := ln.Accept()
				if err != nil {
					return
				}
				// The whole request read: the client waits for the answer,
				// which never comes.
				_, _ = http.ReadRequest(bufio.NewReader(c))
				accepted <- c
			}()
			s := plan.Session{URL: tmpl.Literal("http://" + ln.Addr().String()), Timeout: tt.timeout, MaxMessage: plan.DefaultMaxMessage}
			st, err := Protocol{}.Prepare(&s, prototest.Env(time.Minute))
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			vu := prototest.NewVU()
			done := make(chan struct{})
			go func() {
				defer close(done)
				st.NewSession().Run(ctx, vu, time.Now())
			}()
			select {
			case c := <-accepted:
				defer c.Close()
			case <-time.After(10 * time.Second):
				t.Fatal("the server received no upgrade request")
			}
			if tt.cancel {
				cancel()
			}
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("the session still waits for the upgrade's answer")
			}
			if r := vu.Samples[0]; r.Kind != tt.want {
				t.Errorf("kind %v (%s), want %v", r.Kind, r.Err, tt.want)
			}
		})
	}
}
