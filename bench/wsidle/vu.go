package main

import (
	"context"
	"crypto/tls"
	"net"
	"time"

	"github.com/loadlens/loadlens/internal/protocol"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/tmpl"
)

// idleVU is the least a session needs of a VU: it keeps nothing, so that
// the memory measured is the sessions'.
type idleVU struct {
	tc    tmpl.Context
	start time.Time
}

var _ protocol.VU = (*idleVU)(nil)

func (v *idleVU) Vars() *tmpl.Context             { return &v.tc }
func (v *idleVU) Record(*sample.Request)          {}
func (v *idleVU) Check(int32, time.Time, bool)    {}
func (v *idleVU) Since(t time.Time) time.Duration { return t.Sub(v.start) }
func (v *idleVU) Written()                        {}
func (v *idleVU) Dialing() func(net.Conn)         { return nil }
func (v *idleVU) Outcome(_ context.Context, err error) (sample.Kind, string) {
	return sample.Other, err.Error()
}

// env is what the engine gives a protocol: a dialer and a TLS configuration.
func env(timeout time.Duration) protocol.Env {
	return protocol.Env{Dialer: &net.Dialer{Timeout: timeout}, TLS: func() *tls.Config { return &tls.Config{} }, HandshakeTimeout: timeout}
}
