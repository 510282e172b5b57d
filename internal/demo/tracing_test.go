package demo

import (
	"net/http"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/otlp"
	"github.com/loadlens/loadlens/internal/spans"
)

// TestShopExportsSpans: with an OTLP endpoint, a sampled request gets a
// server span continuing its traceparent, and client spans for its
// database statements and cache calls; an unsampled one exports nothing.
func TestShopExportsSpans(t *testing.T) {
	recv, err := otlp.Listen("127.0.0.1:0", otlp.Options{Spans: 10000})
	if err != nil {
		t.Fatal(err)
	}
	defer recv.Close()
	o := small
	o.OTLPEndpoint = recv.Endpoint()
	o.CacheDelay = time.Millisecond
	tg := startShop(t, o)
	const (
		sampledFirst = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"
		sampledProd  = "00-1af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"
		sampledCoup  = "00-2af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"
		unsampled    = "00-3af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00"
	)
	send := func(method, path, variant, tp string) {
		req := mustRequest(t, method, tg.URL+path)
		req.Header.Set(VariantHeader, variant)
		req.Header.Set("traceparent", tp)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode >= 300 {
			t.Fatalf("%s %s: status %d", method, path, resp.StatusCode)
		}
	}
	send("GET", "/apps/first-page/game", "naive", sampledFirst)
	send("GET", "/products/7", "improved", sampledProd)
	send("POST", "/coupons/issue?user=u1", "improved", sampledCoup)
	send("GET", "/products/8", "naive", unsampled)
	// the batcher exports within its timeout; poll with a bound
	byTrace := map[string][]spans.Span{}
	deadline := time.Now().Add(15 * time.Second)
	for len(byTrace) < 3 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond) // polling the receiver with a bounded deadline
		got, _ := recv.Spans()
		clear(byTrace)
		for _, s := range got {
			byTrace[s.Trace.String()] = append(byTrace[s.Trace.String()], s)
		}
	}
	if _, ok := byTrace[unsampled[3:35]]; ok {
		t.Errorf("an unsampled request exported spans")
	}
	for _, tc := range []struct {
		tp, server string
		db, cache  bool
	}{
		{sampledFirst, "GET /apps/first-page/{category}", true, false},
		{sampledProd, "GET /products/{id}", true, true}, // a fresh shop: the cache misses, the database answers
		{sampledCoup, "POST /coupons/issue", false, true},
	} {
		ss := byTrace[tc.tp[3:35]]
		var server, db, cache bool
		for _, s := range ss {
			if s.Service != "loadlens-demo-shop" {
				t.Errorf("span %q of service %q", s.Name, s.Service)
			}
			switch {
			case s.Kind == spans.KindServer:
				server = s.Name == tc.server && s.Parent == spans.SpanID{0xb7, 0xad, 0x6b, 0x71, 0x69, 0x20, 0x33, 0x31}
			case s.DBSystem == "sqlite" && s.Statement != "":
				db = true
			case spans.IsCache(s.DBSystem):
				cache = true
			}
		}
		if !server || db != tc.db || (tc.cache && !cache) {
			t.Errorf("%s: %d spans, server span %v, DB statement %v, cache %v: %+v", tc.server, len(ss), server, db, cache, ss)
		}
	}
}
