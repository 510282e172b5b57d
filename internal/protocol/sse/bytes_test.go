package sse

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/protocol/prototest"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/tmpl"
)

// TestSessionBytesOnTheWire: a session's sent bytes are its requests as
// the server read them (a reconnection's too), and its received bytes are
// the stream as it crossed the socket, as HTTP counts a request's; SSE's
// sent bytes were 0.
func TestSessionBytesOnTheWire(t *testing.T) {
	const event = "id: %d\ndata: {\"n\": %d}\n\n"
	var last atomic.Int64
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for range 2 { // then close: the client reconnects for the rest
			n := last.Add(1)
			fmt.Fprintf(w, event, n, n)
		}
	}))
	var counts *prototest.Counts
	srv.Listener, counts = prototest.CountBytes(srv.Listener)
	srv.Start()
	defer srv.Close()
	s := plan.Session{URL: tmpl.Literal(srv.URL + "/feed"), Timeout: 5 * time.Second, MaxMessage: plan.DefaultMaxMessage,
		MaxMessages: 4, Reconnects: 1, Headers: []plan.Header{{Name: "Authorization", Value: tmpl.Literal("Bearer 0123456789")}}}
	st, err := Protocol{}.Prepare(&s, prototest.Env(5*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	sess := st.NewSession()
	defer sess.Close()
	vu := prototest.NewVU()
	sess.Run(context.Background(), vu, time.Now())
	r := vu.Samples[0]
	if r.Kind != sample.OK || vu.Facts[0].MsgsReceived != 4 {
		t.Fatalf("session: %v %s, %d events", r.Kind, r.Err, vu.Facts[0].MsgsReceived)
	}
	var events int64
	for i := 1; i <= 4; i++ {
		events += int64(len(fmt.Sprintf(event, i, i)))
	}
	if r.Sent != counts.Read.Load() || r.Sent < 2*int64(len("GET /feed HTTP/1.1\r\nAuthorization: Bearer 0123456789\r\n\r\n")) {
		t.Errorf("sent %d B, the server read %d B in two requests", r.Sent, counts.Read.Load())
	}
	if written := counts.WrittenAtLeast(r.Received, 5*time.Second); r.Received > written || r.Received <= events {
		t.Errorf("received %d B, the server wrote %d B with %d B of events", r.Received, written, events)
	}
}
