package otlp

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"

	"github.com/loadlens/loadlens/internal/spans"
)

// TestJSONReadAsTheCollectorReadsIt: an OTLP/JSON export is taken or
// refused as the collector's decoder (pdata) takes or refuses it, and
// yields the spans that decoder, with convert, yields: hex ids in either
// case, snake_case names, kinds as names or numbers, times as strings or
// numbers, unknown fields; and ids of a bad length or with non-hex digits.
func TestJSONReadAsTheCollectorReadsIt(t *testing.T) {
	js, _ := export().MarshalJSON()
	const span = `{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"shop"}}]},` +
		`"scopeSpans":[{"spans":[{"traceId":"%T","spanId":"%S","parentSpanId":"","name":"q","kind":%K,` +
		`"startTimeUnixNano":%A,"endTimeUnixNano":"1764000000200000000","attributes":[{"key":"db.system","value":{"stringValue":"redis"}}]%X}]}]}]}`
	fill := func(trace, id, kind, start, extra string) string {
		return strings.NewReplacer("%T", trace, "%S", id, "%K", kind, "%A", start, "%X", extra).Replace(span)
	}
	const tid, sid = "0af7651916cd43dd8448eb211c80319c", "b7ad6b7169203331"
	cases := []struct{ name, body string }{
		{"the shop's export", string(js)},
		{"kind by number, time as a number", fill(tid, sid, "3", "1764000000100000000", "")},
		{"kind by name, time as a string", fill(tid, sid, `"SPAN_KIND_SERVER"`, `"1764000000100000000"`, "")},
		{"upper-case hex", fill(strings.ToUpper(tid), strings.ToUpper(sid), "2", "1", "")},
		{"unknown fields", fill(tid, sid, "2", "1", `,"newField":{"x":[1,2]}`)},
		{"a link", fill(tid, sid, "2", "1", `,"links":[{"traceId":"`+tid+`","spanId":"`+sid+`"}]`)},
		{"snake_case names", strings.NewReplacer("resourceSpans", "resource_spans", "scopeSpans", "scope_spans", "traceId", "trace_id").Replace(fill(tid, sid, "2", "1", ""))},
		{"no spans", `{"resourceSpans":[]}`},
		{"empty", `{}`},
		{"a trace id of 15 bytes", fill(tid[:30], sid, "2", "1", "")},
		{"a span id of 4 bytes", fill(tid, sid[:8], "2", "1", "")},
		{"an odd-length id", fill(tid[:31], sid, "2", "1", "")},
		{"a non-hex id", fill("zz"+tid[2:], sid, "2", "1", "")},
		{"a bad link id", fill(tid, sid, "2", "1", `,"links":[{"traceId":"xyz0","spanId":"`+sid+`"}]`)},
		{"not JSON", `{`},
		{"a string for a list", `{"resourceSpans":"x"}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			er := ptraceotlp.NewExportRequest()
			errWant := er.UnmarshalJSON([]byte(c.body))
			var got []spans.Span
			pb, errGot := jsonToProto([]byte(c.body))
			if errGot == nil {
				errGot = decodeProto(pb, func(s *spans.Span) { got = append(got, *s) })
			}
			if (errGot == nil) != (errWant == nil) {
				t.Fatalf("jsonToProto and decodeProto: %v; the collector's decoder: %v", errGot, errWant)
			}
			if errWant != nil {
				return
			}
			if want := convert(er.Traces()); !reflect.DeepEqual(got, want) && len(got)+len(want) > 0 {
				t.Fatalf("kept\n%+v\nthe collector's decoder\n%+v", got, want)
			}
		})
	}
}

// TestResponsesAreTheCollectors: the answer to an export is, byte for byte,
// the collector's empty ExportTraceServiceResponse in each encoding.
func TestResponsesAreTheCollectors(t *testing.T) {
	resp := ptraceotlp.NewExportResponse()
	js, _ := resp.MarshalJSON()
	pb, _ := resp.MarshalProto()
	if !bytes.Equal(js, jsonResponse) || !bytes.Equal(pb, protoResponse) {
		t.Fatalf("answers %q and %q, the collector's %q and %q", jsonResponse, protoResponse, js, pb)
	}
}
