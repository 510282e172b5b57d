// Package prototest is the session protocols' test kit: a fake VU that
// keeps what a session records, and the environment the engine would lend,
// so that each protocol's tests (sse, ws, grpc, and the next one) run a
// session the same way.
package prototest

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/loadlens/loadlens/internal/protocol"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/tmpl"
)

// VU is a protocol.VU that keeps the samples, facts and checks a session
// recorded. Read its fields once the session has returned.
type VU struct {
	TC      tmpl.Context
	Samples []sample.Request
	Facts   []sample.Facts   // each sample's facts, with their gaps copied
	Checks  map[int32][2]int // by check id: passes, fails
	Start   time.Time        // the run's start, which Since measures from
	// OnCheck, when set, is called at each check, before it is counted.
	OnCheck func()

	mu        sync.Mutex   // a streaming session checks from more than one goroutine
	announced atomic.Int64 // Written's calls, from the handshake's goroutine
}

// NewVU returns a VU with four variables, started now.
func NewVU() *VU {
	return &VU{TC: tmpl.Context{Vars: make([]string, 4)}, Checks: map[int32][2]int{}, Start: time.Now()}
}

// Vars returns the VU's template context.
func (v *VU) Vars() *tmpl.Context { return &v.TC }

// Record keeps a copy of s and of its facts: the session reuses its buffers.
func (v *VU) Record(s *sample.Request) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.Samples = append(v.Samples, *s)
	if s.Facts != nil {
		f := *s.Facts
		f.Gaps = append([]time.Duration(nil), s.Facts.Gaps...)
		v.Facts = append(v.Facts, f)
	}
}

// Check counts one evaluation of check id.
func (v *VU) Check(id int32, _ time.Time, ok bool) {
	if v.OnCheck != nil {
		v.OnCheck()
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	c := v.Checks[id]
	if ok {
		c[0]++
	} else {
		c[1]++
	}
	v.Checks[id] = c
}

// Outcome classifies a failure as the engine's HTTP path does for the
// cases the protocols' tests provoke: the run's end, a timeout, a refused
// connection, an unknown certificate authority; anything else is Other.
func (v *VU) Outcome(ctx context.Context, err error) (sample.Kind, string) {
	if ctx.Err() != nil {
		return sample.Interrupted, "interrupted"
	}
	var unknown x509.UnknownAuthorityError
	var oe *net.OpError
	var ne net.Error
	switch {
	case errors.As(err, &unknown):
		return sample.TLS, err.Error()
	case errors.As(err, &ne) && ne.Timeout():
		return sample.Timeout, err.Error()
	case errors.As(err, &oe) && oe.Op == "dial", strings.Contains(err.Error(), "connection refused"):
		return sample.ConnRefused, err.Error()
	}
	return sample.Other, err.Error()
}

// Since returns t's offset from the VU's Start.
func (v *VU) Since(t time.Time) time.Duration { return t.Sub(v.Start) }

// Written counts the session's announcements that its opening request is
// written (Announced).
func (v *VU) Written() { v.announced.Add(1) }

// Dialing tells nothing: the fake VU has no start gate.
func (v *VU) Dialing() func(net.Conn) { return nil }

// Announced is how many times the session called Written.
func (v *VU) Announced() int64 { return v.announced.Load() }

// Env is the environment the engine lends a protocol: a dialer and a TLS
// handshake bounded by timeout, and a TLS configuration that trusts the
// system's roots.
func Env(timeout time.Duration) protocol.Env {
	return protocol.Env{Dialer: &net.Dialer{Timeout: timeout}, TLS: func() *tls.Config { return &tls.Config{} }, HandshakeTimeout: timeout}
}

var _ protocol.VU = (*VU)(nil) // VU is what a session sees
