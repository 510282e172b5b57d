package otlp

import (
	"bytes"
	"compress/gzip"
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/loadlens/loadlens/internal/spans"
)

// t0 is when export's spans start: now, as a run's spans do (far from the
// run they would be refused as impossible).
var t0 = time.Now().Truncate(time.Millisecond).UTC()

// export builds one export of the shop: a server span, a DB call, a cache
// call and an outgoing HTTP call in the old conventions.
func export() ptraceotlp.ExportRequest {
	td := ptrace.NewTraces()
	rs := td.ResourceSpans().AppendEmpty()
	rs.Resource().Attributes().PutStr("service.name", "shop")
	ss := rs.ScopeSpans().AppendEmpty().Spans()
	tid := pcommon.TraceID{0x0a, 0xf7, 0x65, 0x19, 0x16, 0xcd, 0x43, 0xdd, 0x84, 0x48, 0xeb, 0x21, 0x1c, 0x80, 0x31, 0x9c}
	add := func(id byte, parent byte, name string, kind ptrace.SpanKind, from, to int, attrs map[string]string) {
		s := ss.AppendEmpty()
		s.SetTraceID(tid)
		s.SetSpanID(pcommon.SpanID{id})
		s.SetParentSpanID(pcommon.SpanID{parent})
		s.SetName(name)
		s.SetKind(kind)
		s.SetStartTimestamp(pcommon.NewTimestampFromTime(t0.Add(time.Duration(from) * time.Millisecond)))
		s.SetEndTimestamp(pcommon.NewTimestampFromTime(t0.Add(time.Duration(to) * time.Millisecond)))
		for k, v := range attrs {
			s.Attributes().PutStr(k, v)
		}
	}
	add(1, 0xb7, "GET /apps/first-page", ptrace.SpanKindServer, 0, 100, nil)
	add(2, 1, "SELECT apps", ptrace.SpanKindClient, 10, 40, map[string]string{"db.system": "postgresql", "db.statement": "SELECT * FROM apps"})
	add(3, 1, "GET", ptrace.SpanKindClient, 40, 45, map[string]string{"db.system.name": "redis"})
	add(4, 1, "GET", ptrace.SpanKindClient, 50, 70, map[string]string{"http.method": "GET", "http.url": "http://payments.local:8081/pay"})
	return ptraceotlp.NewExportRequestFromTraces(td)
}

func TestReceiverTakesProtobufAndJSON(t *testing.T) {
	r, err := Listen("127.0.0.1:0", Options{Spans: 100})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	pb, _ := export().MarshalProto()
	js, _ := export().MarshalJSON()
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(pb)
	zw.Close()
	for _, tc := range []struct {
		name, ctype, encoding string
		body                  []byte
		status                int
	}{
		{"protobuf", "application/x-protobuf", "", pb, 200},
		{"json", "application/json", "", js, 200},
		{"gzip protobuf", "application/x-protobuf", "gzip", gz.Bytes(), 200},
		{"unknown type", "text/plain", "", pb, 415},
		{"bad protobuf", "application/x-protobuf", "", []byte("\xff\xff\xff"), 400},
		{"bad json", "application/json", "", []byte("{"), 400},
		{"bad encoding", "application/x-protobuf", "br", pb, 400},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest("POST", r.Endpoint()+Path, bytes.NewReader(tc.body))
			req.Header.Set("Content-Type", tc.ctype)
			if tc.encoding != "" {
				req.Header.Set("Content-Encoding", tc.encoding)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d, want %d", resp.StatusCode, tc.status)
			}
			if tc.status == 200 && !strings.HasPrefix(resp.Header.Get("Content-Type"), tc.ctype) {
				t.Errorf("answered in %s, want %s", resp.Header.Get("Content-Type"), tc.ctype)
			}
		})
	}
	got, st := r.Spans()
	if st.Exports != 3 || st.Rejected != 4 || len(got) != 12 {
		t.Fatalf("stats %+v, %d spans; want 3 exports, 4 rejected, 12 spans", st, len(got))
	}
	for _, s := range got[:4] {
		if s.Trace.String() != "0af7651916cd43dd8448eb211c80319c" || s.Service != "shop" {
			t.Errorf("span %+v", s)
		}
	}
	want := []spans.Span{
		{Name: "GET /apps/first-page", Kind: spans.KindServer},
		{Name: "SELECT apps", Kind: spans.KindClient, DBSystem: "postgresql", Statement: "SELECT * FROM apps"},
		{Name: "GET", Kind: spans.KindClient, DBSystem: "redis"},
		{Name: "GET", Kind: spans.KindClient, Host: "payments.local:8081"},
	}
	for i := range 12 {
		g, w := got[i], want[i%4]
		if g.Name != w.Name || g.Kind != w.Kind || g.DBSystem != w.DBSystem || g.Statement != w.Statement || g.Host != w.Host {
			t.Errorf("span %d: %+v, want %+v", i, g, w)
		}
	}
	if d := got[1].Duration(); d != 30*time.Millisecond || !got[0].Start.Equal(t0) {
		t.Errorf("DB span of %v starting %v", d, got[0].Start)
	}
	if got[1].Parent != got[0].ID || got[0].Parent != (spans.SpanID{0xb7}) {
		t.Errorf("parents %x %x", got[1].Parent, got[0].Parent)
	}
}

func TestReceiverKeepsABound(t *testing.T) {
	r, err := Listen("127.0.0.1:0", Options{Spans: 6})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	pb, _ := export().MarshalProto()
	for range 3 {
		resp, err := http.Post(r.Endpoint()+Path, "application/x-protobuf", bytes.NewReader(pb))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Fatalf("status %d: an export past the bound is still accepted", resp.StatusCode)
		}
	}
	got, st := r.Spans()
	if len(got) != 6 || st.Dropped != 6 || st.Spans != 6 {
		t.Errorf("%d spans kept, stats %+v; want 6 kept, 6 dropped", len(got), st)
	}
}

func TestReceiverTakesGRPC(t *testing.T) {
	r, err := Listen("127.0.0.1:0", Options{Spans: 100})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	addr, err := r.ServeGRPC("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	cc, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer cc.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := ptraceotlp.NewGRPCClient(cc).Export(ctx, export()); err != nil {
		t.Fatal(err)
	}
	got, st := r.Spans()
	if len(got) != 4 || st.Exports != 1 || got[1].Statement != "SELECT * FROM apps" {
		t.Errorf("%d spans, stats %+v", len(got), st)
	}
}
