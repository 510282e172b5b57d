package otlp

import (
	"encoding/base64"
	"encoding/hex"
	"errors"

	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
)

// jsonToProto turns an OTLP/JSON export into its protobuf form, which
// decodeProto reads. OTLP/JSON is protobuf's JSON mapping (read here by
// protojson into go.opentelemetry.io/proto/otlp's types, the OTLP library
// the outputs and the demo link already) except for trace and span ids,
// written in hex rather than base64, and unknown fields, which it ignores.
func jsonToProto(body []byte) ([]byte, error) {
	var req coltracepb.ExportTraceServiceRequest
	if err := (protojson.UnmarshalOptions{DiscardUnknown: true}).Unmarshal(body, &req); err != nil {
		return nil, err
	}
	for _, rs := range req.ResourceSpans {
		for _, ss := range rs.ScopeSpans {
			for _, s := range ss.Spans {
				ids := []*[]byte{&s.TraceId, &s.SpanId, &s.ParentSpanId}
				for _, l := range s.Links {
					ids = append(ids, &l.TraceId, &l.SpanId)
				}
				for _, p := range ids {
					if err := hexID(p); err != nil {
						return nil, err
					}
				}
			}
		}
	}
	return proto.Marshal(&req)
}

// hexID turns an id that protojson decoded as base64 back into its text
// and decodes that as hex. A hex id's length is a multiple of 4, so the
// text comes back exactly; any other fails here or in decodeProto's length
// check, as in the collector's decoder.
func hexID(p *[]byte) error {
	if len(*p) == 0 {
		return nil
	}
	b, err := hex.DecodeString(base64.StdEncoding.EncodeToString(*p))
	if err != nil {
		return errors.New("invalid trace or span id: " + err.Error())
	}
	*p = b
	return nil
}
