package engine

import (
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/engine/h1/h1test"
	"github.com/loadlens/loadlens/internal/plan"
)

// TestChecksReadEncodedBodiesDecoded: a gzip or deflate body (the test
// sent Accept-Encoding itself) is checked decoded, as k6 does, on both
// clients; Received stays the bytes on the wire, and a decoded body past
// max_body is cut there and marked truncated.
func TestChecksReadEncodedBodiesDecoded(t *testing.T) {
	page := "hello " + strings.Repeat("a", 4000) + " THE END"
	encode := map[string][]byte{"identity": []byte(page)}
	var gz, zl bytes.Buffer
	w := gzip.NewWriter(&gz)
	w.Write([]byte(page))
	w.Close()
	z := zlib.NewWriter(&zl)
	z.Write([]byte(page))
	z.Close()
	encode["gzip"], encode["deflate"] = gz.Bytes(), zl.Bytes()
	for _, c := range []struct {
		enc       string
		maxBody   int64
		hasEnd    bool // whether the end of the page was checked
		truncated bool
	}{
		{"gzip", 1 << 20, true, false},
		{"deflate", 1 << 20, true, false},
		{"gzip", 100, false, true},
		{"identity", 1 << 20, true, false},
	} {
		body := encode[c.enc]
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if c.enc != "identity" {
				w.Header().Set("Content-Encoding", c.enc)
			}
			w.Write(body)
		}))
		for _, cl := range clients() {
			t.Run(c.enc+"/"+cl.name, func(t *testing.T) {
				step := get(srv.URL)
				r := step.Request
				r.NeedBody, r.MaxBody = true, c.maxBody
				r.Checks = []plan.Check{
					{ID: 0, Name: "has hello", From: plan.FromBody, Op: plan.OpContains, Values: []string{"hello"}},
					{ID: 1, Name: "has the end", From: plan.FromBody, Op: plan.OpContains, Values: []string{"THE END"}},
				}
				s := scenario(plan.Load{Model: plan.Iterations, VUCount: 1, Count: 2, MaxDuration: time.Minute}, step)
				rec, _ := runPlan(t, &plan.Plan{Scenarios: []*plan.Scenario{s}}, cl.opts)
				if len(rec.reqs) != 2 {
					t.Fatalf("%d samples", len(rec.reqs))
				}
				for _, q := range rec.reqs {
					if q.Status != 200 || q.Truncated != c.truncated || q.Received < int64(len(body)) || q.Received > int64(len(body))+500 {
						t.Fatalf("sample %+v: want a 200 of %d bytes on the wire, truncated %v", q, len(body), c.truncated)
					}
				}
				end := [2]int{2, 0}
				if !c.hasEnd {
					end = [2]int{0, 2}
				}
				if rec.passes[0] != 2 || rec.fails[0] != 0 || rec.passes[1] != end[0] || rec.fails[1] != end[1] {
					t.Errorf("hello %d/%d, end %d/%d (passes/fails); want 2/0 and %v", rec.passes[0], rec.fails[0], rec.passes[1], rec.fails[1], end)
				}
			})
		}
		srv.Close()
	}
}

// TestBodyCheckOnAPlainBodyDoesNotAllocate: looking for a Content-Encoding
// costs a step with a body check nothing when there is none.
func TestBodyCheckOnAPlainBodyDoesNotAllocate(t *testing.T) {
	step := get(h1test.FixedServer(t))
	step.Request.NeedBody = true
	step.Request.Checks = []plan.Check{{ID: 0, Name: "ok", From: plan.FromBody, Op: plan.OpContains, Values: []string{"ok"}}}
	s := scenario(plan.Load{Model: plan.Iterations, VUCount: 1, Count: 1, MaxDuration: time.Minute}, step)
	e := New(&plan.Plan{Scenarios: []*plan.Scenario{s}}, nullSink{}, Options{})
	e.start = time.Now()
	v := e.scens[0].newVU()
	t.Cleanup(v.close)
	ctx := context.Background()
	v.iterate(ctx, time.Now()) // warm up: dial, buffers
	if n := testing.AllocsPerRun(200, func() { v.iterate(ctx, time.Now()) }); n != 0 {
		t.Fatalf("%v allocations per iteration of one checked GET, want 0", n)
	}
}
