package mock

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log"
	"net"
	"net/http"
	"strings"
	"time"
)

// Server serves a mock config: HTTP/1.1 and h2c (HTTP/2 with prior
// knowledge) on its listen address, and HTTP/1.1 and HTTP/2 over TLS on its
// TLS address when it has one.
type Server struct {
	cfg    *Config
	h      *handler
	plain  net.Listener
	secure net.Listener
	cert   *Certificate
}

// New returns a server for cfg; Listen binds it.
func New(cfg *Config) *Server {
	return &Server{cfg: cfg, h: newHandler(cfg)}
}

// Listen binds the listen address and, when configured, the TLS address,
// generating a certificate unless the config names one.
func (s *Server) Listen() error {
	if t := s.cfg.AdminToken; t != "" && (len(t) < MinAdminToken || strings.ContainsFunc(t, func(r rune) bool { return r <= ' ' || r >= 0x7f })) {
		return fmt.Errorf("mock: an admin token needs at least %d printable ASCII characters, without spaces", MinAdminToken)
	}
	ln, err := net.Listen("tcp", s.cfg.Listen)
	if err != nil {
		return fmt.Errorf("mock: listen on %s: %w", s.cfg.Listen, err)
	}
	s.plain = ln
	if t := s.cfg.TLS; t != nil {
		cert, err := loadOrGenerate(t)
		if err != nil {
			ln.Close()
			return err
		}
		s.cert = cert
		sl, err := net.Listen("tcp", t.Listen)
		if err != nil {
			ln.Close()
			return fmt.Errorf("mock: listen on %s: %w", t.Listen, err)
		}
		s.secure = sl
	}
	s.h.token = adminToken(s.cfg.AdminToken, s.plain, s.secure)
	return nil
}

// AdminToken returns the token the admin API requires: the config's, or
// one made up because the mock listens where other hosts reach it; ""
// when none is needed.
func (s *Server) AdminToken() string { return s.h.token }

// Addr returns the bound listen address.
func (s *Server) Addr() string { return s.plain.Addr().String() }

// TLSAddr returns the bound TLS address, or "" without TLS.
func (s *Server) TLSAddr() string {
	if s.secure == nil {
		return ""
	}
	return s.secure.Addr().String()
}

// Certificate returns the TLS certificate in use, or nil without TLS.
func (s *Server) Certificate() *Certificate { return s.cert }

// Serve answers requests until ctx ends, then lets requests in flight end
// for up to Settle. The plain listener serves HTTP/1.1 and h2c (HTTP/2 with
// prior knowledge) through one net/http server, which tells them apart by
// the HTTP/2 preface.
func (s *Server) Serve(ctx context.Context) error {
	quiet := log.New(discard{}, "", 0)
	newStd := func() *http.Server {
		return &http.Server{Handler: s.h, ReadHeaderTimeout: 30 * time.Second, IdleTimeout: 5 * time.Minute, MaxHeaderBytes: maxReqHeader,
			ErrorLog: quiet, Protocols: new(http.Protocols)}
	}
	plain := newStd()
	plain.Protocols.SetHTTP1(true)
	plain.Protocols.SetUnencryptedHTTP2(true)
	errc := make(chan error, 2)
	go func() { errc <- plain.Serve(s.plain) }()
	servers := []*http.Server{plain}
	if s.secure != nil {
		secure := newStd()
		secure.Protocols.SetHTTP1(true)
		secure.Protocols.SetHTTP2(true)
		secure.TLSConfig = &tls.Config{Certificates: []tls.Certificate{s.cert.tls}, MinVersion: tls.VersionTLS12}
		servers = append(servers, secure)
		go func() { errc <- secure.ServeTLS(s.secure, "", "") }()
	}
	var err error
	select {
	case <-ctx.Done():
	case err = <-errc:
	}
	stop, cancel := context.WithTimeout(context.Background(), Settle)
	defer cancel()
	for _, srv := range servers {
		if e := srv.Shutdown(stop); e != nil && !errors.Is(e, context.DeadlineExceeded) {
			err = errors.Join(err, e)
		}
		srv.Close()
	}
	if errors.Is(err, http.ErrServerClosed) || errors.Is(err, net.ErrClosed) {
		err = nil
	}
	return err
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
