package main

import (
	"io"
	"net"
	"net/http"
	"sync"
	"time"
)

// traceSink answers truthapp's span exports while no loadlens run listens
// on the trace port (warm-ups, sweeps, the time between runs), as a team's
// collector would: without it the agent fails every export and logs a stack
// trace a second, on the target's CPU.
type traceSink struct {
	addr string
	mu   sync.Mutex
	srv  *http.Server
}

// on starts answering on addr; a port loadlens has just released may take a
// moment to free, so it tries for a few seconds.
func (s *traceSink) on() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.srv != nil {
		return nil
	}
	var ln net.Listener
	var err error
	for i := 0; i < 50; i++ {
		if ln, err = net.Listen("tcp", s.addr); err == nil {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err != nil {
		return err
	}
	s.srv = &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, io.LimitReader(r.Body, 64<<20))
		w.Header().Set("Content-Type", r.Header.Get("Content-Type")) // an empty ExportTraceServiceResponse in kind
	})}
	go s.srv.Serve(ln)
	return nil
}

// off stops answering, freeing the port for loadlens's receiver.
func (s *traceSink) off() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.srv != nil {
		s.srv.Close()
		s.srv = nil
	}
}

// WithReceiver runs f, a loadlens command whose test receives spans, with
// the trace port free for it.
func (l *Lab) WithReceiver(traces bool, f func() error) error {
	if !traces {
		return f()
	}
	l.sink.off()
	defer func() {
		if err := l.sink.on(); err != nil {
			logf("the trace sink could not listen again on %s: %v", l.OTLP, err)
		}
	}()
	return f()
}
