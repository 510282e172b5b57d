package prototest

import (
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"os"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/sample"
)

// TestOutcome: the fake VU classifies the failures the protocols' tests
// provoke as the engine does.
func TestOutcome(t *testing.T) {
	done, cancel := context.WithCancel(context.Background())
	cancel()
	dial := &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connect: connection refused")}
	cases := []struct {
		name string
		ctx  context.Context
		err  error
		want sample.Kind
	}{
		{"the run ended", done, errors.New("read: use of closed connection"), sample.Interrupted},
		{"a dial refused", context.Background(), dial, sample.ConnRefused},
		{"a dial refused, wrapped", context.Background(), fmt.Errorf("connecting: %w", dial), sample.ConnRefused},
		{"a library's refusal in words", context.Background(), errors.New("dial tcp 127.0.0.1:1: connection refused"), sample.ConnRefused},
		{"a deadline", context.Background(), os.ErrDeadlineExceeded, sample.Timeout},
		{"an unknown authority", context.Background(), fmt.Errorf("tls: %w", x509.UnknownAuthorityError{}), sample.TLS},
		{"anything else", context.Background(), errors.New("bad frame"), sample.Other},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got, _ := NewVU().Outcome(c.ctx, c.err); got != c.want {
				t.Errorf("Outcome(%v) = %v, want %v", c.err, got, c.want)
			}
		})
	}
}

// TestRecordCopiesFacts: a sample's facts are kept as they were during the
// call, though the session reuses its gaps' buffer afterwards.
func TestRecordCopiesFacts(t *testing.T) {
	vu := NewVU()
	f := sample.Facts{MsgsReceived: 2, Gaps: []time.Duration{time.Millisecond}}
	vu.Record(&sample.Request{Facts: &f})
	f.Gaps[0], f.MsgsReceived = time.Hour, 9
	vu.Check(3, time.Now(), true)
	vu.Check(3, time.Now(), false)
	if got := vu.Facts[0]; got.MsgsReceived != 2 || got.Gaps[0] != time.Millisecond || vu.Checks[3] != [2]int{1, 1} {
		t.Errorf("kept %+v and checks %v", got, vu.Checks)
	}
}
