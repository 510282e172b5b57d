package grpc

import (
	"testing"
	"time"
)

// TestReconnectBackoffIsCapped: a VU's connection retries a restarted
// target within about a second, never grpc-go's default of up to 120 s
// (the outage itself is not replayed here: its length would be the test's).
func TestReconnectBackoffIsCapped(t *testing.T) {
	b := reconnect.Backoff
	for _, tc := range []struct {
		name string
		ok   bool
	}{
		{"max delay at most 1s", b.MaxDelay > 0 && b.MaxDelay <= time.Second},
		{"base delay below the max", b.BaseDelay > 0 && b.BaseDelay <= b.MaxDelay},
		{"delays grow", b.Multiplier >= 1},
		{"jitter within 0..1", b.Jitter >= 0 && b.Jitter <= 1},
		{"a connect attempt may take seconds", reconnect.MinConnectTimeout >= time.Second},
	} {
		if !tc.ok {
			t.Errorf("%s: %+v", tc.name, reconnect)
		}
	}
}
