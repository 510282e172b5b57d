package engine

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/tmpl"
)

// uploadServer reads requests on 127.0.0.1 and answers each with a 200,
// counting the bytes it read and the request bodies of wantLen bytes.
func uploadServer(t *testing.T, wantLen int) (url string, read, bodies *atomic.Int64) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	read, bodies = new(atomic.Int64), new(atomic.Int64)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				br := bufio.NewReader(countingReader{c, read})
				for {
					req, err := http.ReadRequest(br)
					if err != nil {
						return
					}
					if n, err := io.Copy(io.Discard, req.Body); err == nil && n == int64(wantLen) {
						bodies.Add(1)
					}
					c.Write([]byte("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"))
				}
			}()
		}
	}()
	return "http://" + ln.Addr().String() + "/upload", read, bodies
}

// countingReader adds what it reads to n.
type countingReader struct {
	r io.Reader
	n *atomic.Int64
}

func (c countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}

// TestLargeBodyMemoryIsBounded: N VUs of the lean client uploading a large
// body hold O(1) copies of it, not one (or two: the rendered body and the
// client's write buffer) each for the run: a constant body is one copy
// shared by every VU, written from it; a templated one is released when
// its request ends. The server reads every byte the samples count as sent.
func TestLargeBodyMemoryIsBounded(t *testing.T) {
	const size, vus = 4 << 20, 8
	big := string(bytes.Repeat([]byte("0123456789abcdef"), size/16))
	tests := []struct {
		name string
		body *tmpl.Template
		// allocated bounds the bytes allocated while the VUs upload, in
		// bodies: with a constant body, the shared copy.
		allocated int
	}{
		{"constant", tmpl.Literal(big), 2},
		{"templated", mustCompile(t, big[:size-2]+"{{ randInt(10, 99) }}"), 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			url, read, bodies := uploadServer(t, size)
			step := get(url)
			step.Request.Method, step.Request.Body, step.Request.BodyKind = "POST", tt.body, plan.RawBody
			s := scenario(plan.Load{Model: plan.Iterations, VUCount: 1, Count: 1, MaxDuration: time.Minute}, step)
			rec := newTestRecorder()
			e := New(&plan.Plan{Scenarios: []*plan.Scenario{s}}, rec, Options{})
			e.start = time.Now()
			vs := make([]*vu, vus)
			for i := range vs {
				vs[i] = e.scens[0].newVU()
				defer vs[i].close()
			}
			var m0, m1, m2 runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&m0)
			var wg sync.WaitGroup
			for _, v := range vs {
				wg.Go(func() { v.iterate(context.Background(), time.Now()) })
			}
			wg.Wait()
			runtime.ReadMemStats(&m1)
			runtime.GC()
			runtime.ReadMemStats(&m2)
			held := (float64(m2.HeapAlloc) - float64(m0.HeapAlloc)) / size
			allocated := float64(m1.TotalAlloc-m0.TotalAlloc) / size
			t.Logf("%d VUs: %.2f bodies allocated while uploading, %.2f held after", vus, allocated, held)
			if held > 1.5 {
				t.Errorf("%d VUs hold %.2f bodies of %d bytes after their requests, want at most 1.5", vus, held, size)
			}
			if tt.allocated > 0 && allocated > float64(tt.allocated) {
				t.Errorf("%d VUs allocated %.2f bodies while uploading, want at most %d", vus, allocated, tt.allocated)
			}
			runtime.KeepAlive(vs)
			var sent int64
			for _, q := range rec.reqs {
				if q.Status != 200 {
					t.Fatalf("sample %+v: want a 200", q)
				}
				sent += q.Sent
			}
			if len(rec.reqs) != vus || bodies.Load() != vus {
				t.Errorf("%d samples, %d whole bodies at the server; want %d of each", len(rec.reqs), bodies.Load(), vus)
			}
			if got := read.Load(); got != sent {
				t.Errorf("the server read %d bytes, the samples say %d were sent", got, sent)
			}
		})
	}
}

// mustCompile compiles a template that uses no variable.
func mustCompile(t *testing.T, src string) *tmpl.Template {
	t.Helper()
	tp, err := tmpl.Compile(src, &tmpl.Scope{})
	if err != nil {
		t.Fatal(err)
	}
	return tp
}
