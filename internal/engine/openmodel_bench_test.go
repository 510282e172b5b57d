//go:build linux

package engine

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"net"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/engine/h1/h1test"
	"github.com/loadlens/loadlens/internal/plan"
)

// benchServerEnv makes the test binary a fixed-reply server (see
// TestOpenModelBenchServer): the open-model benchmark's target runs in its
// own process, so its system calls and wake-ups are not counted as the
// generator's.
const benchServerEnv = "LOADLENS_ENGINE_BENCH_SERVER"

// BenchmarkOpenModelCPU runs an open-model scenario at a fixed rate, one
// GET per arrival, against a server in another process, and reports what
// the generator's process spent per request: CPU time (user + system) and
// context switches (each a sleep or a preemption of one of its threads).
// Wall time per op is the schedule's spacing and means nothing here. Run it
// pinned to one core to match the bench (taskset -c 1 go test -run '^$'
// -bench OpenModelCPU -benchtime 25000x ./internal/engine/).
func BenchmarkOpenModelCPU(b *testing.B) {
	for _, c := range []struct {
		name string
		opts Options
	}{{"h1", Options{}}, {"net-http", Options{NetHTTPOnly: true}}} {
		b.Run(c.name, func(b *testing.B) {
			url := benchServer(b)
			const rate = 5000
			n := max(b.N, 1000)
			s := scenario(plan.Load{Model: plan.ArrivalRate, StartRate: rate,
				Stages:          []plan.Stage{{Duration: time.Duration(n) * time.Second / rate, Target: rate}},
				PreAllocatedVUs: 64, MaxVUs: 1024}, get(url))
			rec := newTestRecorder()
			rec.tally = &tally{} // counts only: keeping 25,000 samples would be the benchmark's own cost
			p := &plan.Plan{Scenarios: []*plan.Scenario{s}}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute+time.Duration(n)*time.Second/rate)
			defer cancel()
			before := rusage(b)
			b.ResetTimer()
			if err := New(p, rec, c.opts).Run(ctx); err != nil {
				b.Fatal(err)
			}
			b.StopTimer()
			after := rusage(b)
			done := rec.count()
			if done == 0 {
				b.Fatal("no request completed")
			}
			cpu := time.Duration(after.Utime.Nano()+after.Stime.Nano()-before.Utime.Nano()-before.Stime.Nano()) * time.Nanosecond
			sw := after.Nvcsw + after.Nivcsw - before.Nvcsw - before.Nivcsw
			b.ReportMetric(float64(cpu.Microseconds())/float64(done), "cpu-µs/req")
			b.ReportMetric(float64(time.Duration(after.Stime.Nano()-before.Stime.Nano()).Microseconds())/float64(done), "sys-µs/req")
			b.ReportMetric(float64(sw)/float64(done), "ctxsw/req")
			b.ReportMetric(0, "ns/op") // the schedule's spacing, not a cost
		})
	}
}

// rusage returns the process's resource usage.
func rusage(b *testing.B) syscall.Rusage {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return ru
}

// benchServer starts the test binary as a fixed-reply server in its own
// process and returns its URL; it stops with the benchmark.
func benchServer(b testing.TB) string { return benchServerOf(b, "http") }

// benchServerOf is benchServer over http, or over TLS (scheme "https",
// a certificate of its own: the client must skip the check).
func benchServerOf(b testing.TB, scheme string) string {
	cmd := exec.Command(os.Args[0], "-test.run=^TestOpenModelBenchServer$")
	cmd.Env = append(os.Environ(), benchServerEnv+"="+scheme)
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, scheme+"://") {
		b.Fatalf("the server process said %q: %v", line, err)
	}
	return strings.TrimSpace(line)
}

// TestOpenModelBenchServer is the server process of BenchmarkOpenModelCPU
// (run with benchServerEnv set): it answers every request on a kept-alive
// connection with h1test.FixedReply and prints its URL. Run as a test, it
// checks that one connection gets one reply per pipelined request.
func TestOpenModelBenchServer(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	if os.Getenv(benchServerEnv) == "" {
		go serveFixed(ln)
		c, err := net.DialTimeout("tcp", ln.Addr().String(), 5*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		c.SetDeadline(time.Now().Add(10 * time.Second))
		c.Write([]byte(strings.Repeat("GET / HTTP/1.1\r\nHost: h\r\n\r\n", 3)))
		want := strings.Repeat(h1test.FixedReply, 3)
		got := make([]byte, 0, len(want))
		buf := make([]byte, 512)
		for len(got) < len(want) {
			n, err := c.Read(buf)
			if err != nil {
				t.Fatalf("after %q: %v", got, err)
			}
			got = append(got, buf[:n]...)
		}
		if string(got) != want {
			t.Fatalf("got %q, want three fixed replies", got)
		}
		return
	}
	scheme := os.Getenv(benchServerEnv)
	if scheme == "https" {
		cfg, _ := h1test.Certs(t)
		ln = tls.NewListener(ln, cfg)
	}
	os.Stdout.WriteString(scheme + "://" + ln.Addr().String() + "/\n")
	serveFixed(ln)
}

// serveFixed answers each request (a head without a body) on each
// connection of ln with h1test.FixedReply, until ln is closed.
func serveFixed(ln net.Listener) {
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		go func() {
			defer c.Close()
			buf := make([]byte, 4096)
			have := 0
			for {
				n, err := c.Read(buf[have:])
				if err != nil {
					return
				}
				have += n
				end := 0
				for {
					i := bytes.Index(buf[end:have], []byte("\r\n\r\n"))
					if i < 0 {
						break
					}
					end += i + 4
					if _, err := c.Write([]byte(h1test.FixedReply)); err != nil {
						return
					}
				}
				have = copy(buf, buf[end:have])
				if have == len(buf) {
					return // a head larger than the buffer: not a request this server answers
				}
			}
		}()
	}
}
