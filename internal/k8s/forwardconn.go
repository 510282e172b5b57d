package k8s

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"

	streamhttp "k8s.io/streaming/pkg/httpstream"
)

// The port-forward protocol's names (k8s.io/api/core/v1's constants).
const (
	portForwardProtocol = "portforward.k8s.io"
	streamTypeHeader    = "streamType"
	portHeader          = "port"
	requestIDHeader     = "requestID"
)

// forwarder carries each connection accepted on a loopback listener to
// one port of a pod, over one port-forward connection, as client-go's
// PortForwarder does for a single port.
type forwarder struct {
	conn  streamhttp.Connection
	port  int
	log   io.Writer
	reqID atomic.Int64
}

// serve accepts until ctx ends or the connection to the pod is lost,
// then closes both.
func (f *forwarder) serve(ctx context.Context, ln net.Listener) {
	go func() {
		select {
		case <-ctx.Done():
		case <-f.conn.CloseChan():
		}
		_ = ln.Close()
		_ = f.conn.Close()
	}()
	for {
		c, err := ln.Accept()
		if err != nil {
			return // closed above
		}
		go f.handle(c)
	}
}

// handle opens the error and data streams of one connection and copies
// both ways; a message on the error stream closes the whole forward, as
// kubectl's does.
func (f *forwarder) handle(c net.Conn) {
	defer c.Close()
	h := http.Header{}
	h.Set(streamTypeHeader, "error")
	h.Set(portHeader, strconv.Itoa(f.port))
	h.Set(requestIDHeader, strconv.FormatInt(f.reqID.Add(1)-1, 10))
	errStream, err := f.conn.CreateStream(h)
	if err != nil {
		f.logf("creating the error stream: %v", err)
		return
	}
	_ = errStream.Close() // the client writes nothing on it
	defer f.conn.RemoveStreams(errStream)
	type result struct {
		msg []byte
		err error
	}
	errc := make(chan result, 1)
	go func() { msg, err := io.ReadAll(errStream); errc <- result{msg, err} }()

	h.Set(streamTypeHeader, "data")
	data, err := f.conn.CreateStream(h)
	if err != nil {
		f.logf("creating the data stream: %v", err)
		return
	}
	defer f.conn.RemoveStreams(data)
	remoteDone, localErr := make(chan struct{}), make(chan struct{})
	go func() {
		if _, err := io.Copy(c, data); err != nil && !closedConn(err) {
			f.logf("copying from the pod: %v", err)
		}
		close(remoteDone)
	}()
	go func() {
		defer data.Close()
		if _, err := io.Copy(data, c); err != nil && !closedConn(err) {
			f.logf("copying to the pod: %v", err)
			close(localErr)
		}
	}()
	select {
	case <-remoteDone:
	case <-localErr:
	}
	_ = data.Reset()
	switch r := <-errc; {
	case r.err != nil:
		f.logf("reading the error stream: %v", r.err)
		_ = f.conn.Close()
	case len(r.msg) > 0:
		f.logf("%s", r.msg)
		_ = f.conn.Close()
	}
}

func (f *forwarder) logf(format string, args ...any) {
	fmt.Fprintf(f.log, "port-forward to port %d: %s\n", f.port, fmt.Sprintf(format, args...))
}

// closedConn tells an error of a connection closed on purpose.
func closedConn(err error) bool {
	return errors.Is(err, net.ErrClosed) || strings.Contains(strings.ToLower(err.Error()), "use of closed network connection")
}
