package scrape

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"
	"time"
)

// BenchmarkConvert measures what one scrape costs loadlens once the body
// is in: parsing the exposition and keeping a preset's series (or all).
func BenchmarkConvert(b *testing.B) {
	for _, bc := range []struct{ name, fixture, preset string }{
		{"spring", "spring", "spring"},
		{"node", "node", "node"},
		{"node/keep-all", "node", ""},
		{"postgres", "postgres", "postgres"},
		{"postgres/keep-all", "postgres", ""},
		{"redis", "redis", "redis"},
		{"go", "go", "go"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			text, err := os.ReadFile("testdata/" + bc.fixture + ".prom")
			if err != nil {
				b.Fatal(err)
			}
			tg := benchTarget(b, bc.preset)
			b.SetBytes(int64(len(text)))
			b.ReportAllocs()
			kept := 0
			for i := 0; b.Loop(); i++ {
				set, err := tg.convert(context.Background(), text, t0.Add(time.Duration(i)*time.Second), i)
				if err != nil {
					b.Fatal(err)
				}
				kept = len(set)
			}
			b.ReportMetric(float64(kept), "series/scrape")
		})
	}
}

// BenchmarkScrapeNode measures a whole scrape of the node fixture over
// HTTP on 127.0.0.1: request, body, parse, preset.
func BenchmarkScrapeNode(b *testing.B) {
	text, err := os.ReadFile("testdata/node.prom")
	if err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write(text) }))
	defer srv.Close()
	tg := benchTarget(b, "node")
	client := newClient()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		body, err := fetch(context.Background(), client, srv.URL, time.Second)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := tg.convert(context.Background(), body, t0.Add(time.Duration(i)*time.Second), i); err != nil {
			b.Fatal(err)
		}
	}
}

// benchTarget returns a target with a preset, or keeping every series.
func benchTarget(b *testing.B, preset string) *target {
	tg, err := newTarget(&Target{Name: "t", URL: "http://127.0.0.1:1/", Preset: preset, Interval: time.Second}, newBounds())
	if err != nil {
		b.Fatal(err)
	}
	return tg
}
