package h2

import (
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/engine/h1"
)

// BenchmarkDo is one GET of 100 bytes a loop against Go's h2c server on
// loopback: the client's allocations and CPU a request, the server's
// included in ns/op.
func BenchmarkDo(b *testing.B) {
	srv := startGo(b, false)
	c := New(Config{})
	defer c.Close()
	req := &h1.Request{Method: "GET", URL: []byte(srv.url + "/small"), Timeout: 5 * time.Second}
	var resp h1.Response
	b.ReportAllocs()
	for b.Loop() {
		if err := c.Do(req, &resp); err != nil || resp.Status != 200 {
			b.Fatalf("status %d, %v", resp.Status, err)
		}
	}
}
