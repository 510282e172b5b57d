package sse

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mccutchen/go-httpbin/v2/httpbin"

	"github.com/loadlens/loadlens/internal/jsonpath"
	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/protocol/prototest"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/tmpl"
)

// TestAgainstGoHTTPBin subscribes to go-httpbin's /sse, an event stream
// nobody here wrote: its events parse and check, its close after count
// events fails a session that wanted more, its initial delay is a stall.
func TestAgainstGoHTTPBin(t *testing.T) {
	srv := httptest.NewServer(httpbin.New())
	defer srv.Close()
	hasID := plan.Check{ID: 0, From: plan.FromJSON, Path: jsonpath.MustParse("$.id"), Op: plan.OpExists}
	tests := []struct {
		name     string
		path     string
		s        plan.Session
		kind     sample.Kind
		errHas   string
		received int64
	}{
		{"events to max_events", "/sse?count=5&duration=50ms", plan.Session{Timeout: 5 * time.Second, MaxMessages: 5, Checks: []plan.Check{hasID}}, sample.OK, "", 5},
		{"closed after count events", "/sse?count=3&duration=30ms", plan.Session{Timeout: 5 * time.Second, MaxMessages: 10}, sample.ConnReset, "after 3 events", 3},
		{"a delay longer than the timeout", "/sse?count=1&delay=2s", plan.Session{Timeout: 100 * time.Millisecond, MaxMessages: 1}, sample.Timeout, "no response head within the timeout (100ms)", 0},
		{"a bad request", "/sse?count=0", plan.Session{Timeout: 5 * time.Second, MaxMessages: 1}, sample.HTTP4xx, "status 400", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := tt.s
			s.URL, s.MaxMessage = tmpl.Literal(srv.URL+tt.path), plan.DefaultMaxMessage
			st, _ := Protocol{}.Prepare(&s, prototest.Env(5*time.Second))
			sess := st.NewSession()
			defer sess.Close()
			vu := prototest.NewVU()
			sess.Run(context.Background(), vu, time.Now())
			r, f := vu.Samples[0], vu.Facts[0]
			if r.Kind != tt.kind || !strings.Contains(r.Err, tt.errHas) || f.MsgsReceived != tt.received {
				t.Errorf("kind %v (%q), %d events; want %v containing %q, %d events", r.Kind, r.Err, f.MsgsReceived, tt.kind, tt.errHas, tt.received)
			}
			if c := vu.Checks[0]; len(s.Checks) > 0 && (c[0] != int(tt.received) || c[1] != 0) {
				t.Errorf("check $.id exists: %v passes/fails, want %d passes", c, tt.received)
			}
		})
	}
}
