package grpc

import (
	"context"
	"crypto/x509"
	"errors"
	"net"
	"regexp"
	"sync"
	"time"

	"github.com/loadlens/loadlens/internal/jsonpath"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/tmpl"
)

// fakeVU keeps what a session records.
type fakeVU struct {
	mu      sync.Mutex
	tc      tmpl.Context
	samples []sample.Request
	facts   []sample.Facts
	checks  map[int32][2]int // passes, fails
	onCheck func()           // called at each check, when set
}

func newFakeVU() *fakeVU {
	return &fakeVU{checks: map[int32][2]int{}, tc: tmpl.Context{Vars: make([]string, 4)}}
}

func (f *fakeVU) Vars() *tmpl.Context { return &f.tc }
func (f *fakeVU) Record(s *sample.Request) {
	f.samples = append(f.samples, *s)
	fc := *s.Facts
	fc.Gaps = append([]time.Duration(nil), s.Facts.Gaps...)
	f.facts = append(f.facts, fc)
}
func (f *fakeVU) Check(id int32, _ time.Time, ok bool) {
	if f.onCheck != nil {
		f.onCheck()
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	c := f.checks[id]
	if ok {
		c[0]++
	} else {
		c[1]++
	}
	f.checks[id] = c
}
func (f *fakeVU) Outcome(ctx context.Context, err error) (sample.Kind, string) {
	if ctx.Err() != nil {
		return sample.Interrupted, "interrupted"
	}
	var unknown x509.UnknownAuthorityError
	if errors.As(err, &unknown) {
		return sample.TLS, err.Error()
	}
	if oe, ok := err.(*net.OpError); ok && oe.Op == "dial" { //nolint:errorlint // the dialer's own error
		return sample.ConnRefused, err.Error()
	}
	return sample.Other, err.Error()
}
func (f *fakeVU) Since(time.Time) time.Duration { return 0 }

func mustPath(s string) jsonpath.Path   { return jsonpath.MustParse(s) }
func mustRegex(s string) *regexp.Regexp { return regexp.MustCompile(s) }
func ptr(s string) *string              { return &s }
