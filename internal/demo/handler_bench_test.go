package demo

import (
	"net/http"
	"testing"
)

// discard is a ResponseWriter that keeps nothing, so a benchmark measures
// the shop, not a recorder.
type discard struct {
	h      http.Header
	status int
}

func (d *discard) Header() http.Header         { return d.h }
func (d *discard) Write(b []byte) (int, error) { return len(b), nil }
func (d *discard) WriteHeader(status int)      { d.status = status }

func BenchmarkHandlers(b *testing.B) {
	tg := startShop(b, small)
	h := tg.srv.Handler
	cases := []struct {
		name, path, variant string
	}{
		{"product cached", "/products/7", "improved"},
		{"product from the database", "/products/7", "naive"},
		{"first page precomputed", "/apps/first-page/game", "improved"},
		{"feed improved", "/feed", "improved"},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			req, _ := http.NewRequest("GET", tg.URL+c.path, nil)
			req.Header.Set(VariantHeader, c.variant)
			w := &discard{h: http.Header{}}
			h.ServeHTTP(w, req) // warm the cache
			b.ReportAllocs()
			for b.Loop() {
				clear(w.h)
				h.ServeHTTP(w, req)
			}
			if w.status != http.StatusOK {
				b.Fatalf("status %d", w.status)
			}
		})
	}
}
