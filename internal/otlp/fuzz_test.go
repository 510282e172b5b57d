package otlp

import (
	"bytes"
	"compress/gzip"
	"net/http"
	"net/http/httptest"
	"reflect"
	"testing"

	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"
	"google.golang.org/protobuf/encoding/protowire"

	"github.com/loadlens/loadlens/internal/spans"
)

// fuzzSeeds are export bodies: valid ones in both encodings and the wire
// format's corners (a group, the field of OTLP before 0.15, ids of a bad
// length, a value given twice, an overlong varint, a truncated body).
func fuzzSeeds() [][]byte {
	pb, _ := export().MarshalProto()
	js, _ := export().MarshalJSON()
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(pb)
	zw.Close()
	var group, badID, twice []byte
	group = protowire.AppendTag(group, 9, protowire.StartGroupType)
	group = protowire.AppendTag(group, 9, protowire.EndGroupType)
	group = append(group, pb...)
	old := request(1000, protowire.AppendBytes(protowire.AppendTag(nil, 2, protowire.BytesType), tinySpan(1, 3)))
	badID = append([]byte{}, pb...)
	badID[bytes.Index(badID, []byte{0x0a, 0x10, 0x0a, 0xf7})+1] = 0x0f // a trace id of 15 bytes
	kv := protowire.AppendBytes(protowire.AppendTag(nil, 1, protowire.BytesType), []byte("db.system"))
	for _, v := range []string{"redis", ""} {
		var val []byte // an empty value after a set one: merged, the first stays
		if v != "" {
			val = protowire.AppendBytes(protowire.AppendTag(nil, 1, protowire.BytesType), []byte(v))
		}
		kv = protowire.AppendBytes(protowire.AppendTag(kv, 2, protowire.BytesType), val)
	}
	var sp []byte
	sp = protowire.AppendVarint(protowire.AppendTag(sp, 6, protowire.VarintType), 3)
	sp = protowire.AppendBytes(protowire.AppendTag(sp, 9, protowire.BytesType), kv)
	twice = request(2, protowire.AppendBytes(protowire.AppendTag(nil, 2, protowire.BytesType), sp))
	overlong := []byte{0x0a, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f}
	return [][]byte{pb, js, gz.Bytes(), group, old, badID, twice, overlong, pb[:len(pb)/2], tinySpans(3, 0, 1), nil, []byte("{")}
}

// FuzzExportBody gives the receiver any body. decodeProto must keep what
// the collector's decoder (with convert) keeps of every body that decoder
// takes, and take or refuse a body in its check as in its decoding; the
// receiver must answer 200, 400 or 413 and keep no more spans than the body
// can hold. The seeds run with every go test.
func FuzzExportBody(f *testing.F) {
	for _, b := range fuzzSeeds() {
		f.Add(b, false, false)
		f.Add(b, true, false)
		f.Add(b, false, true)
	}
	f.Fuzz(func(t *testing.T, body []byte, json, gz bool) {
		var got []spans.Span
		errGot := decodeProto(body, func(s *spans.Span) { got = append(got, *s) })
		if errCheck := decodeProto(body, nil); (errCheck == nil) != (errGot == nil) {
			t.Fatalf("checking says %v, decoding %v", errCheck, errGot)
		}
		er := ptraceotlp.NewExportRequest()
		if err := er.UnmarshalProto(body); err == nil {
			if errGot != nil {
				t.Fatalf("the collector's decoder takes the body, decodeProto refuses it: %v", errGot)
			}
			if want := convert(er.Traces()); !reflect.DeepEqual(got, want) && len(got)+len(want) > 0 {
				t.Fatalf("decodeProto keeps\n%+v\nthe collector's decoder\n%+v", got, want)
			}
		}
		r := newReceiver(Options{Spans: 1000})
		ctype, send := "application/x-protobuf", body
		if json {
			ctype = "application/json"
		}
		enc := ""
		if gz {
			var b bytes.Buffer
			zw := gzip.NewWriter(&b)
			zw.Write(body)
			zw.Close()
			send, enc = b.Bytes(), "gzip"
		}
		req := httptest.NewRequest(http.MethodPost, Path, bytes.NewReader(send))
		req.Header.Set("Content-Type", ctype)
		req.Header.Set("Content-Encoding", enc)
		w := httptest.NewRecorder()
		r.export(w, req)
		kept, st := r.Spans()
		switch {
		case w.Code != 200 && w.Code != 400 && w.Code != 413:
			t.Fatalf("status %d: %s", w.Code, w.Body)
		case w.Code == 200 && st.Exports != 1, w.Code != 200 && (st.Rejected != 1 || len(kept) > 0):
			t.Fatalf("status %d, stats %+v, %d spans kept", w.Code, st, len(kept))
		case len(kept) > len(body)/2+1: // a span takes at least two bytes: its field's tag and length
			t.Fatalf("%d spans kept of a body of %d bytes", len(kept), len(body))
		}
	})
}
