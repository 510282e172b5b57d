package otlp

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protowire"

	"github.com/loadlens/loadlens/internal/access"
	"github.com/loadlens/loadlens/internal/sample"
)

// tinySpans is a protobuf export of n spans as small as a span can be,
// each of its own trace (tag the first byte of each id), of about size
// bytes when n is 0: the most spans a body of that size can hold.
func tinySpans(n, size int, tag byte) []byte {
	if n == 0 {
		n = size / 40
	}
	var all []byte
	for i := range n {
		all = protowire.AppendTag(all, 2, protowire.BytesType)
		all = protowire.AppendBytes(all, tinySpan(i, tag))
	}
	return request(2, all)
}

// tinySpan is span i of tinySpans.
func tinySpan(i int, tag byte) []byte {
	var one []byte
	tid := [16]byte{tag, byte(i >> 16), byte(i >> 8), byte(i), 0xee}
	one = protowire.AppendTag(one, 1, protowire.BytesType)
	one = protowire.AppendBytes(one, tid[:])
	one = protowire.AppendTag(one, 2, protowire.BytesType)
	one = protowire.AppendBytes(one, tid[:8])
	one = protowire.AppendTag(one, 5, protowire.BytesType)
	return protowire.AppendString(one, "q")
}

// request wraps the encoded spans field(s) of one scope into an export,
// the scope under field scopes of its resource spans (2, or 1000 as OTLP
// before 0.15 wrote it).
func request(scopes protowire.Number, spanFields []byte) []byte {
	rs := protowire.AppendTag(nil, scopes, protowire.BytesType)
	rs = protowire.AppendBytes(rs, spanFields)
	out := protowire.AppendTag(nil, 1, protowire.BytesType)
	return protowire.AppendBytes(out, rs)
}

// post sends body to the receiver and returns the status and answer.
func post(t *testing.T, url, ctype, encoding string, body io.Reader, length int64, header ...string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest("POST", url, body)
	req.ContentLength = length
	req.Header.Set("Content-Type", ctype)
	if encoding != "" {
		req.Header.Set("Content-Encoding", encoding)
	}
	for i := 0; i+1 < len(header); i += 2 {
		if header[i] == "Host" {
			req.Host = header[i+1]
		} else {
			req.Header.Set(header[i], header[i+1])
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// zeros is an endless body of zero bytes.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) { clear(p); return len(p), nil }

func TestReceiverBoundsBodies(t *testing.T) {
	r, err := Listen("127.0.0.1:0", Options{Spans: 100})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var bomb bytes.Buffer // a few KiB that decompress to 17 MiB
	zw := gzip.NewWriter(&bomb)
	io.Copy(zw, io.LimitReader(zeros{}, maxBody+1<<20))
	zw.Close()
	for _, tc := range []struct {
		name, ctype, encoding string
		body                  io.Reader
		length                int64
	}{
		{"a length beyond the bound", "application/x-protobuf", "", io.LimitReader(zeros{}, 59<<20), 59 << 20},
		{"a chunked body beyond the bound", "application/x-protobuf", "", io.LimitReader(zeros{}, 59<<20), -1},
		{"a gzip bomb", "application/x-protobuf", "gzip", bytes.NewReader(bomb.Bytes()), int64(bomb.Len())},
		{"JSON beyond its own bound", "application/json", "", io.LimitReader(zeros{}, maxJSONBody+1), maxJSONBody + 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, msg := post(t, r.Endpoint()+Path, tc.ctype, tc.encoding, tc.body, tc.length)
			if code != http.StatusRequestEntityTooLarge || !strings.Contains(msg, "send smaller batches") {
				t.Errorf("status %d %q, want 413 saying to send smaller batches", code, msg)
			}
		})
	}
	if _, st := r.Spans(); st.Rejected != 4 || st.Exports != 0 {
		t.Errorf("stats %+v, want 4 rejected", st)
	}
}

// TestReceiverKeepsOnlyTheRunsTraces: with a join, spans of the run's
// traces are kept, even one that comes before its request is recorded;
// the others are counted as foreign and kept nowhere.
func TestReceiverKeepsOnlyTheRunsTraces(t *testing.T) {
	r, err := Listen("127.0.0.1:0", Options{Spans: 1000})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	own := sample.TraceID{0x0a, 0xf7, 0x65, 0x19, 0x16, 0xcd, 0x43, 0xdd, 0x84, 0x48, 0xeb, 0x21, 0x1c, 0x80, 0x31, 0x9c} // export()'s
	late := sample.TraceID{1}                                                                                             // known only after its spans came
	var mu sync.Mutex
	known := map[sample.TraceID]int32{own: 0}
	r.Join(Join{Lookup: func(id sample.TraceID) (int32, bool) {
		mu.Lock()
		defer mu.Unlock()
		e, ok := known[id]
		return e, ok
	}, Endpoints: 2})
	pb, _ := export().MarshalProto()
	lateSpans := tinySpans(3, 0, 1) // traces 01 00 00 00 ee..., 01 00 00 01 ee...; the first is not late
	for _, body := range [][]byte{pb, tinySpans(50, 0, 7), lateSpans} {
		if code, msg := post(t, r.Endpoint()+Path, "application/x-protobuf", "", bytes.NewReader(body), int64(len(body))); code != 200 {
			t.Fatalf("status %d %s", code, msg)
		}
	}
	late = sample.TraceID{1, 0, 0, 0, 0xee}
	if !r.Has(late) || !r.Has(own) {
		t.Error("Has does not see the spans waiting or kept")
	}
	mu.Lock()
	known[late] = 1 // its request is recorded after its spans arrived
	mu.Unlock()
	got, st := r.Spans()
	if len(got) != 5 || st.Foreign != 52 || st.Exports != 3 || st.Spans != 5 {
		t.Fatalf("%d spans, stats %+v; want the 4 of the run's trace and the late one, and 52 foreign", len(got), st)
	}
	for _, s := range got {
		if s.Trace != own && s.Trace != late {
			t.Errorf("a foreign span was kept: %+v", s)
		}
	}
	if r.Has(sample.TraceID{7, 0, 0, 1, 0xee}) {
		t.Error("Has still sees a foreign trace")
	}
}

// TestReceiverBoundsEachEndpoint: an endpoint whose spans fill its share
// of the bytes leaves the other endpoints theirs.
func TestReceiverBoundsEachEndpoint(t *testing.T) {
	r, err := Listen("127.0.0.1:0", Options{Spans: 1_000_000, Bytes: 64 << 10})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	r.Join(Join{Lookup: func(id sample.TraceID) (int32, bool) { return int32(id[0]), true }, Endpoints: 2}) // endpoint = first byte
	big, small := tinySpans(2000, 0, 0), tinySpans(10, 0, 1)
	for _, body := range [][]byte{big, small} {
		if code, msg := post(t, r.Endpoint()+Path, "application/x-protobuf", "", bytes.NewReader(body), int64(len(body))); code != 200 {
			t.Fatalf("status %d %s", code, msg)
		}
	}
	got, st := r.Spans()
	var per [2]int64
	for i := range got {
		per[got[i].Trace[0]] += cost(&got[i])
	}
	if per[0] > 32<<10 || per[0] < 30<<10 || per[1] == 0 || st.Dropped == 0 || int64(len(got)) > (64<<10)/spanSize {
		t.Errorf("bytes kept per endpoint %v, stats %+v: want endpoint 0 at its 32 KiB and endpoint 1's 10 spans kept", per, st)
	}
}

func TestReceiverAnswersBusy(t *testing.T) {
	r, err := Listen("127.0.0.1:0", Options{Spans: 100})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	r.slotWait = 50 * time.Millisecond
	for range decodeSlots {
		r.slots <- struct{}{} // every decode slot taken, as by exports being decoded
	}
	pb, _ := export().MarshalProto()
	req, _ := http.NewRequest("POST", r.Endpoint()+Path, bytes.NewReader(pb))
	req.Header.Set("Content-Type", "application/x-protobuf")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" {
		t.Errorf("status %d, Retry-After %q; want 503 with Retry-After (OTLP exporters retry)", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
}

// TestReceiverOffLoopbackNeedsAToken: on an address other hosts can reach,
// the receiver makes up a token when given none, and refuses every export
// without it — over HTTP and gRPC — with a message that says how to send
// it; on loopback without a token it refuses other Host names.
func TestReceiverOffLoopbackNeedsAToken(t *testing.T) {
	r, err := Listen("0.0.0.0:0", Options{Spans: 100})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	token := r.Token()
	if len(token) < access.MinTokenLength {
		t.Fatalf("token %q: a receiver other hosts can reach made up none", token)
	}
	_, port, _ := net.SplitHostPort(r.Addr())
	url := "http://127.0.0.1:" + port + Path
	pb, _ := export().MarshalProto()
	for _, tc := range []struct {
		name   string
		header []string
		status int
		says   string
	}{
		{"no token", nil, 401, "OTEL_EXPORTER_OTLP_HEADERS=Authorization=Bearer%20<token>"},
		{"a wrong token", []string{"Authorization", "Bearer " + strings.Repeat("x", len(token))}, 403, "wrong token"},
		{"the token", []string{"Authorization", "Bearer " + token}, 200, ""},
	} {
		code, msg := post(t, url, "application/x-protobuf", "", bytes.NewReader(pb), int64(len(pb)), tc.header...)
		if code != tc.status || !strings.Contains(msg, tc.says) {
			t.Errorf("%s: status %d %q, want %d saying %q", tc.name, code, msg, tc.status, tc.says)
		}
	}
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
	client := ptraceotlp.NewGRPCClient(cc)
	if _, err := client.Export(ctx, export()); status.Code(err) != codes.Unauthenticated {
		t.Errorf("gRPC without the token: %v, want Unauthenticated", err)
	}
	if _, err := client.Export(metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer "+token), export()); err != nil {
		t.Errorf("gRPC with the token: %v", err)
	}
	if got, st := r.Spans(); len(got) != 8 || st.Rejected != 3 {
		t.Errorf("%d spans, stats %+v; want the 2 exports with the token kept, 3 refused", len(got), st)
	}

	local, err := Listen("127.0.0.1:0", Options{Spans: 100})
	if err != nil {
		t.Fatal(err)
	}
	defer local.Close()
	if local.Token() != "" {
		t.Error("a loopback receiver asks for a token nobody gave")
	}
	if code, _ := post(t, local.Endpoint()+Path, "application/x-protobuf", "", bytes.NewReader(pb), int64(len(pb)), "Host", "evil.example.com"); code != http.StatusForbidden {
		t.Errorf("a loopback receiver took Host evil.example.com (DNS rebinding): status %d", code)
	}
	if _, err := Listen("127.0.0.1:0", Options{Token: "short"}); err == nil {
		t.Error("a short token was taken")
	}
}

// longSpan is an export of one span whose name and statement are huge.
func longSpan() ptraceotlp.ExportRequest {
	td := ptrace.NewTraces()
	s := td.ResourceSpans().AppendEmpty().ScopeSpans().AppendEmpty().Spans().AppendEmpty()
	s.SetTraceID(pcommon.TraceID{1})
	s.SetName(strings.Repeat("é", 1<<20))
	s.Attributes().PutStr("db.system", "postgresql")
	s.Attributes().PutStr("db.statement", "SELECT "+strings.Repeat("x", 4<<20))
	return ptraceotlp.NewExportRequestFromTraces(td)
}

func TestReceiverBoundsTexts(t *testing.T) {
	r, err := Listen("127.0.0.1:0", Options{Spans: 100})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	pb, _ := longSpan().MarshalProto()
	if code, msg := post(t, r.Endpoint()+Path, "application/x-protobuf", "", bytes.NewReader(pb), int64(len(pb))); code != 200 {
		t.Fatalf("status %d %s", code, msg)
	}
	got, _ := r.Spans()
	if len(got) != 1 || len(got[0].Name) > maxText || len(got[0].Name) < maxText-1 || len(got[0].Statement) != maxStatement ||
		!strings.HasPrefix(got[0].Name, "éé") || !strings.HasPrefix(got[0].Statement, "SELECT x") {
		t.Errorf("kept a name of %d bytes and a statement of %d, want at most %d and %d", len(got[0].Name), len(got[0].Statement), maxText, maxStatement)
	}
}
