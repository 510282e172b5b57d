package demo

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"

	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
)

// TestParseTraceparent: the W3C header's fields, and what makes it invalid
// (the span is then a root, never sampled).
func TestParseTraceparent(t *testing.T) {
	tests := []struct {
		h           string
		ok, sampled bool
	}{
		{"00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", true, true},
		{"00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00", true, false},
		{"01-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01-future", true, true}, // a later version may add fields
		{"00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01-x", false, false},
		{"ff-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", false, false},
		{"00-00000000000000000000000000000000-b7ad6b7169203331-01", false, false},
		{"00-0af7651916cd43dd8448eb211c80319c-0000000000000000-01", false, false},
		{"00-0af7651916cd43dd8448eb211c80319z-b7ad6b7169203331-01", false, false},
		{"", false, false},
	}
	for _, tc := range tests {
		sc, ok := parseTraceparent(tc.h)
		if ok != tc.ok || sc.sampled != tc.sampled {
			t.Errorf("%q: ok %v sampled %v, want %v %v", tc.h, ok, sc.sampled, tc.ok, tc.sampled)
		}
	}
}

// TestTracerSamplesAsParentBasedNeverSample: a span is recorded only under
// a sampled parent, as the SDK's ParentBased(NeverSample) did, in the
// parent's trace and under it.
func TestTracerSamplesAsParentBasedNeverSample(t *testing.T) {
	parent := func(sampled bool) context.Context {
		return withParent(context.Background(), spanContext{trace: [16]byte{1, 2, 3}, id: [8]byte{9}, sampled: sampled})
	}
	tests := []struct {
		name   string
		ctx    context.Context
		record bool
	}{
		{"root", context.Background(), false},
		{"sampled parent", parent(true), true},
		{"unsampled parent", parent(false), false},
	}
	for _, tc := range tests {
		tr := &tracer{exp: &spanExporter{queue: make(chan *tracepb.Span, 4)}}
		ctx, outer := tr.start(tc.ctx, "outer", tracepb.Span_SPAN_KIND_SERVER)
		_, inner := tr.start(ctx, "inner", tracepb.Span_SPAN_KIND_CLIENT)
		inner.End()
		outer.End()
		outer.End() // once only
		if got, want := len(tr.exp.queue), map[bool]int{true: 2, false: 0}[tc.record]; got != want {
			t.Fatalf("%s: %d spans exported, want %d", tc.name, got, want)
		}
		if !tc.record {
			continue
		}
		in, out := <-tr.exp.queue, <-tr.exp.queue
		if !bytes.Equal(out.TraceId, in.TraceId) || out.TraceId[0] != 1 || !bytes.Equal(in.ParentSpanId, out.SpanId) || out.ParentSpanId[0] != 9 {
			t.Errorf("%s: outer %x/%x under %x, inner %x/%x under %x", tc.name, out.TraceId, out.SpanId, out.ParentSpanId, in.TraceId, in.SpanId, in.ParentSpanId)
		}
	}
}

// TestSQLSpans: the traced driver makes otelsql's spans, named as the shop
// named them: a statement's with its text, its rows under it, the
// transaction's begin and commit; a failed statement is an error.
func TestSQLSpans(t *testing.T) {
	tr := &tracer{exp: &spanExporter{queue: make(chan *tracepb.Span, 64)}}
	db, err := openTracedSQL(tr, "sqlite", "file:"+filepath.Join(t.TempDir(), "t.db"), "sqlite")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := withParent(context.Background(), spanContext{trace: [16]byte{1}, id: [8]byte{2}, sampled: true})
	if _, err := db.ExecContext(ctx, "CREATE TABLE demo_t (id INTEGER)"); err != nil {
		t.Fatal(err)
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO demo_t VALUES (1)"); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM demo_t").Scan(&n); err != nil || n != 1 {
		t.Fatalf("count %d, %v", n, err)
	}
	if _, err := db.ExecContext(ctx, "SELECT * FROM missing"); err == nil {
		t.Fatal("no error from a missing table")
	}
	var got []string
	byID := map[string]*tracepb.Span{}
	for len(tr.exp.queue) > 0 {
		s := <-tr.exp.queue
		byID[string(s.SpanId)] = s
		name := s.Name
		for _, a := range s.Attributes {
			if a.Key == "db.query.text" {
				name += " (text)"
			}
		}
		if s.GetStatus().GetCode() == tracepb.Status_STATUS_CODE_ERROR {
			name += " (error)"
		}
		if p := byID[string(s.ParentSpanId)]; p != nil {
			name += " under " + p.Name
		}
		got = append(got, name)
	}
	want := []string{"CREATE demo_t (text)", "sql.conn.begin_tx", "INSERT demo_t (text)", "sql.tx.commit",
		"SELECT demo_t (text)", "sql.rows under SELECT demo_t", "SELECT missing (text) (error)"}
	if len(got) != len(want) {
		t.Fatalf("spans %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("span %d: %q, want %q", i, got[i], want[i])
		}
	}
}
