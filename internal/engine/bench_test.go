package engine

import (
	"context"
	"crypto/tls"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/engine/h1"
	"github.com/loadlens/loadlens/internal/engine/h1/h1test"
	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/testkit"
)

// nullSink drops everything: the benchmark measures the request path only.
type nullSink struct{}

func (nullSink) Sink(int) sample.Sink                                     { return nullSink{} }
func (nullSink) Request(*sample.Request)                                  {}
func (nullSink) Check(int32, time.Duration, bool)                         {}
func (nullSink) CheckAnswer(int32, time.Duration, bool, sample.CheckRead) {}
func (nullSink) Iteration(int32, time.Duration, time.Duration)            {}
func (nullSink) Dropped(int32, time.Duration)                             {}
func (nullSink) Group(int32, time.Duration, time.Duration)                {}
func (nullSink) Add(int32, time.Duration, float64)                        {}
func (nullSink) Offered(int32, time.Duration, int64)                      {}
func (nullSink) Lag(int32, time.Duration, time.Duration)                  {}
func (nullSink) NotSent(int32, time.Duration, string)                     {}

// oneVU returns a VU of a one-GET scenario against url (any certificate
// accepted over https).
func oneVU(tb testing.TB, url string, opts Options) *vu {
	s := scenario(plan.Load{Model: plan.Iterations, VUCount: 1, Count: 1, MaxDuration: time.Minute}, get(url))
	e := New(&plan.Plan{Scenarios: []*plan.Scenario{s}, Insecure: true}, nullSink{}, opts)
	e.start = time.Now()
	v := e.scens[0].newVU()
	tb.Cleanup(v.close)
	return v
}

// BenchmarkRoundTrip is one VU iteration of one GET against a server that
// allocates nothing (over TLS, nothing but crypto/tls's own): the engine's
// per-request cost, allocations included, with the lean HTTP/1.1 client
// and with net/http, over http and https.
func BenchmarkRoundTrip(b *testing.B) {
	srvCfg, _ := h1test.Certs(b)
	for _, c := range []struct {
		name   string
		secure bool
		opts   Options
	}{{"h1", false, Options{}}, {"net-http", false, Options{NetHTTPOnly: true}},
		{"h1-tls", true, Options{}}, {"net-http-tls", true, Options{NetHTTPOnly: true}}} {
		b.Run(c.name, func(b *testing.B) {
			url := h1test.FixedServer(b)
			if c.secure {
				url = h1test.FixedTLSServer(b, srvCfg)
			}
			v := oneVU(b, url, c.opts)
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				if !v.iterate(ctx, time.Now()) {
					b.Fatal("iteration failed")
				}
			}
		})
	}
}

func TestRequestPathDoesNotAllocate(t *testing.T) {
	v := oneVU(t, h1test.FixedServer(t), Options{})
	ctx := context.Background()
	v.iterate(ctx, time.Now()) // warm up: dial, buffers
	if n := testing.AllocsPerRun(200, func() { v.iterate(ctx, time.Now()) }); n != 0 {
		t.Fatalf("%v allocations per iteration of one GET, want 0", n)
	}
}

// TestRequestPathOverTLSAllocatesOnlyInCryptoTLS: over https, an iteration
// of one GET allocates no more than crypto/tls itself does for one request
// and its response against the same server (16 bytes per record read on
// each end: golang/go#53142); the engine and the lean client add nothing.
func TestRequestPathOverTLSAllocatesOnlyInCryptoTLS(t *testing.T) {
	if raceEnabled {
		t.Skip("under the race detector sync.Pool drops items at random: crypto/tls's allocations vary")
	}
	srvCfg, _ := h1test.Certs(t)
	url := h1test.FixedTLSServer(t, srvCfg)
	raw, err := tls.Dial("tcp", strings.TrimPrefix(url, "https://"), &tls.Config{InsecureSkipVerify: true})
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	buf := make([]byte, 4096)
	msg := []byte("GET / HTTP/1.1\r\nHost: h\r\nUser-Agent: loadlens\r\n\r\n")
	bare := func() {
		raw.Write(msg)
		for n := 0; n < len(h1test.FixedReply); {
			m, err := raw.Read(buf)
			if err != nil {
				t.Fatal(err)
			}
			n += m
		}
	}
	v := oneVU(t, url, Options{})
	ctx := context.Background()
	for range 3 { // warm up: handshakes, buffers
		bare()
		v.iterate(ctx, time.Now())
	}
	base := testing.AllocsPerRun(200, bare)
	n := testing.AllocsPerRun(200, func() { v.iterate(ctx, time.Now()) })
	t.Logf("allocations per request and response: crypto/tls alone %v, an iteration %v", base, n)
	if n > base {
		t.Fatalf("%v allocations per iteration of one GET over https, crypto/tls alone makes %v", n, base)
	}
}

// memConn answers every write with one fixed reply, in memory: no socket,
// so a benchmark sees the engine's and the lean client's own work only.
type memConn struct {
	net.Conn // nil: methods not overridden below are never called
	reply    []byte
	unread   []byte
}

func (m *memConn) Write(p []byte) (int, error) { m.unread = m.reply; return len(p), nil }
func (m *memConn) Read(p []byte) (int, error) {
	n := copy(p, m.unread)
	m.unread = m.unread[n:]
	return n, nil
}
func (m *memConn) Close() error                { return nil }
func (m *memConn) SetDeadline(time.Time) error { return nil }
func (m *memConn) LocalAddr() net.Addr         { return &net.TCPAddr{} }
func (m *memConn) RemoteAddr() net.Addr        { return &net.TCPAddr{} }

// nginxReply is what the bench's nginx answers (bench/conf/nginx.conf.in).
const nginxReply = "HTTP/1.1 200 OK\r\nServer: nginx\r\nDate: Tue, 24 Nov 2026 04:59:20 GMT\r\n" +
	"Content-Type: text/plain\r\nContent-Length: 100\r\nConnection: keep-alive\r\n\r\n" +
	"0123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789"

// BenchmarkClosedIteration is a closed-model VU's iteration of one GET as
// the bench's closed measurement makes it (intended start "now"), its
// reply from memory: the user-space CPU the engine and the lean client
// spend per request, without the system calls and the bookkeeping.
func BenchmarkClosedIteration(b *testing.B) {
	v := oneVU(b, "http://127.0.0.1:1/", Options{})
	mc := &memConn{reply: []byte(nginxReply)}
	v.h1 = &h1Trip{client: h1.New(h1.Config{Dial: func(context.Context, string, string) (net.Conn, error) { return mc, nil }})}
	ctx := context.Background()
	b.ReportAllocs()
	defer testkit.CPUMeter(b)()
	for b.Loop() {
		if !v.iterate(ctx, time.Time{}) {
			b.Fatal("iteration failed")
		}
	}
}
