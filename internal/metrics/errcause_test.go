package metrics

import (
	"fmt"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/sample"
)

func TestCauseKeyDropsWhatChangesWithEachFailure(t *testing.T) {
	x509 := "tls: failed to verify certificate: x509: certificate has expired or is not yet valid: current time %s is after 2026-11-29T16:33:56Z"
	tests := []struct {
		name string
		a, b string
		same bool
	}{
		{"an expired certificate, a second apart", fmt.Sprintf(x509, "2026-11-30T16:34:26Z"), fmt.Sprintf(x509, "2026-11-30T16:34:27Z"), true},
		{"a reset, from two ephemeral ports", "read tcp 127.0.0.1:54321->127.0.0.1:8080: read: connection reset by peer",
			"read tcp 127.0.0.1:40112->127.0.0.1:8080: read: connection reset by peer", true},
		{"a reset over IPv6", "read tcp [::1]:54321->[::1]:8080: read: connection reset by peer",
			"read tcp [::1]:40112->[::1]:8080: read: connection reset by peer", true},
		{"two targets are two causes", "dial tcp 127.0.0.1:8080: connect: connection refused",
			"dial tcp 127.0.0.1:8081: connect: connection refused", false},
		{"a reset from two targets", "read tcp 127.0.0.1:54321->127.0.0.1:8080: read: connection reset by peer",
			"read tcp 127.0.0.1:54321->127.0.0.1:9090: read: connection reset by peer", false},
		{"two statuses' texts", "503 Service Unavailable", "502 Bad Gateway", false},
		{"two expired and not-yet-valid", fmt.Sprintf(x509, "2026-11-30T16:34:26Z"), "x509: certificate signed by unknown authority", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := sameCause(tt.a, tt.b); got != tt.same {
				t.Errorf("sameCause = %v, want %v\n%s\n%s", got, tt.same, causeKey(tt.a), causeKey(tt.b))
			}
		})
	}
}

// TestOneTLSCauseIsOneFailureGroup: an expired certificate's message names
// the current time, so it differs each second; trial B's failures table
// split the one cause into 708×, 497×, 446× … "870 others". It is one
// sample, whose message is kept whole.
func TestOneTLSCauseIsOneFailureGroup(t *testing.T) {
	rec := NewRecorder(testLayout(), 1)
	sink := rec.Sink(0)
	run := NewRun(testLayout())
	first := ""
	for sec := range 10 {
		for i := range 50 {
			msg := fmt.Sprintf("tls: failed to verify certificate: x509: certificate has expired or is not yet valid: current time 2026-11-30T16:34:%02dZ is after 2026-11-29T16:33:56Z", 20+sec)
			if i%2 == 1 { // a second cause, its local port new each time
				msg = fmt.Sprintf("read tcp 127.0.0.1:%d->127.0.0.1:8443: read: connection reset by peer", 40000+sec*50+i)
			}
			if first == "" {
				first = msg
			}
			sink.Request(&sample.Request{End: time.Duration(sec)*time.Second + time.Millisecond, Duration: time.Millisecond, Kind: sample.TLS, Err: msg})
		}
		run.Add(rec.Collect(sec))
	}
	run.SetElapsed(10 * time.Second)
	e := run.Endpoints[0]
	if len(e.Errors) != 1 {
		t.Fatalf("%d failure groups, want 1: %+v", len(e.Errors), e.Errors)
	}
	g := e.Errors[0]
	if len(g.Samples) != 2 || g.Others() != 0 || g.Samples[0].Count != 250 || g.Samples[1].Count != 250 || g.Samples[0].Message != first {
		t.Errorf("samples %+v, %d others; want the two causes, 250 each, the first message whole", g.Samples, g.Others())
	}
}
