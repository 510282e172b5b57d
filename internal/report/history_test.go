package report

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/history"
)

// nightly is ten runs of one test, p95 100 ms then 150 ms from the sixth,
// each labelled with its commit; the last label is hostile markup.
func nightly() []*history.Test {
	var runs []history.Run
	for i := range 10 {
		p95 := 100.0 + float64(i%3)
		if i >= 5 {
			p95 = 150 + float64(i%2)
		}
		tag := fmt.Sprintf("c%02d", i)
		if i == 9 {
			tag = "</script><script>alert(1)</script>"
		}
		runs = append(runs, history.Run{ID: fmt.Sprintf("20261120-%02d0000-nightly", i), Host: "ci", Name: "nightly", Status: "completed",
			Start: time.Date(2026, 11, 20, i, 0, 0, 0, time.UTC), Tags: map[string]string{"commit": tag}, Shape: "s", ShapeID: "id",
			RPS: 50, Endpoints: []history.Endpoint{{Name: "GET /", Requests: 500, RPS: 50, P50: 40 * time.Millisecond,
				P95: time.Duration(p95 * float64(time.Millisecond)), P99: 200 * time.Millisecond}}})
	}
	return history.Group(runs, history.DefaultMethod)
}

func TestWriteHistoryNamesTheChange(t *testing.T) {
	var b bytes.Buffer
	if err := WriteHistory(&b, nightly()[0], history.DefaultMethod); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"nightly · 10 runs", "GET / p(95) +", "(worse, 101ms → 151ms) from 20261120-050000-nightly",
		"commit=c05; before: commit=c04", "◆", "at least 3 runs a side"} {
		if !strings.Contains(out, want) {
			t.Errorf("history lacks %q:\n%s", want, out)
		}
	}
}

func TestHistoryHTMLEscapesLabels(t *testing.T) {
	var b bytes.Buffer
	if err := WriteHistoryHTML(&b, nightly(), map[string]string{}, history.DefaultMethod); err != nil {
		t.Fatal(err)
	}
	if out := b.String(); strings.Contains(out, "<script>alert") || strings.Contains(out, "</script><script>alert") {
		t.Error("a label's markup reached history.html unescaped")
	}
}
