package app

import (
	"net/http"
	"net/http/httptest"
	"regexp"
	"sync/atomic"
	"testing"
)

// TestOneRequestRunReadsItsRate: 1/s for 1 s is one request over one
// second in summary.json (k6's http_reqs rate), counted against the
// server's own count; not one request over the few milliseconds it took.
// The terminal's headline gives it no rate, as its endpoints row has none.
func TestOneRequestRunReadsItsRate(t *testing.T) {
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	defer srv.Close()
	res, text, summary := runYAML(t, `
base_url: `+srv.URL+`
scenarios:
  one:
    model: arrival-rate
    rate: 1
    duration: 1s
    flow:
      - get: /
`, nil)
	if res.Status != StatusCompleted || hits.Load() != 1 {
		t.Fatalf("status %s, the server saw %d requests, want completed and 1", res.Status, hits.Load())
	}
	reqs := summary["metrics"].(map[string]any)["http_reqs"].(map[string]any)
	if n, rate := reqs["count"].(float64), reqs["rate"].(float64); n != 1 || rate < 0.5 || rate > 1.01 {
		t.Errorf("summary.json http_reqs: count %v, rate %v/s; want 1 over about a second", n, rate)
	}
	// The summary's headline rate is the endpoints table's, which one request has none of (docs/figures.md).
	if !regexp.MustCompile(`\b1 request · `).MatchString(text) || !regexp.MustCompile(`completed in 1\.[0-9]+s\b`).MatchString(text) {
		t.Fatalf("the summary does not read one request, without a rate, over about a second:\n%s", text)
	}
}
