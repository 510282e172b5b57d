package demo

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/otlp"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/spans"
)

// recording is what TestRecordTraces writes: requests as loadlens would
// have measured them, and the spans the shop exported for them.
type recording struct {
	Requests []spans.Request
	Spans    []spans.Span
}

// TestRecordTraces records the spans of the shop's naive first page and of
// its product page with the cache warm into internal/diagnose/testdata/traces, for the
// trace rule's tests. It runs only with LOADLENS_RECORD_TRACES=1.
func TestRecordTraces(t *testing.T) {
	if os.Getenv("LOADLENS_RECORD_TRACES") == "" {
		t.Skip("records fixtures; set LOADLENS_RECORD_TRACES=1 to rewrite internal/diagnose/testdata/traces")
	}
	recv, err := otlp.Listen("127.0.0.1:0", otlp.Options{Spans: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer recv.Close()
	o := Options{OTLPEndpoint: recv.Endpoint(), CacheDelay: -1}
	tg := startShop(t, o)
	for _, tc := range []struct{ file, path, variant string }{
		{"first-page-naive.json", "/apps/first-page/%s", "naive"},
		{"products-improved.json", "/products/%d", "improved"},
	} {
		for i := range 7 { // warm the product cache: the recorded requests all hit it
			req := mustRequest(t, "GET", tg.URL+fmt.Sprintf("/products/%d", i+1))
			req.Header.Set(VariantHeader, "improved")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
		}
		recv.Reset()
		var rec recording
		start := time.Now()
		for i := range 200 {
			var id sample.TraceID
			id[0], id[14], id[15] = 0x10, byte(i>>8), byte(i)
			path := fmt.Sprintf(tc.path, i%7+1)
			if tc.variant == "naive" {
				path = fmt.Sprintf(tc.path, Categories[i%len(Categories)])
			}
			req := mustRequest(t, "GET", tg.URL+path)
			req.Header.Set(VariantHeader, tc.variant)
			req.Header.Set("traceparent", "00-"+id.String()+"-00f067aa0ba902b7-01")
			began := time.Now()
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			end := time.Now()
			rec.Requests = append(rec.Requests, spans.Request{Trace: id, Sec: int(end.Sub(start) / time.Second), Duration: end.Sub(began)})
		}
		deadline := time.Now().Add(10 * time.Second)
		for time.Now().Before(deadline) && !recv.Has(rec.Requests[len(rec.Requests)-1].Trace) {
			time.Sleep(50 * time.Millisecond) // polling the receiver with a bounded deadline
		}
		rec.Spans, _ = recv.Spans()
		b, err := json.MarshalIndent(rec, "", " ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join("..", "diagnose", "testdata", "traces", tc.file), b, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d requests, %d spans", tc.file, len(rec.Requests), len(rec.Spans))
	}
}
