package app

import (
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"sync/atomic"
	"testing"
)

// TestOneRequestRunReadsItsRate: 1/s for 1 s is one request over one
// second, in summary.json and the terminal summary, counted against the
// server's own count; not one request over the few milliseconds it took.
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
	m := regexp.MustCompile(`\b1 request \(([0-9.]+)/s\)`).FindStringSubmatch(text)
	if m == nil || !regexp.MustCompile(`completed in 1\.[0-9]+s\b`).MatchString(text) {
		t.Fatalf("the summary does not read one request over about a second:\n%s", text)
	}
	if rate, _ := strconv.ParseFloat(m[1], 64); rate < 0.5 || rate > 1.01 {
		t.Errorf("the summary reads %s/s for one request over a second:\n%s", m[1], text)
	}
}
