package otlp

import (
	"errors"
	"fmt"
	"strconv"
	"unicode/utf8"

	"time"

	"github.com/loadlens/loadlens/internal/spans"
)

// decodeProto reads an ExportTraceServiceRequest in protobuf span by span,
// handing each to emit (nil: only check the message), without building the
// request in memory: what a body costs to read is the body and the spans
// kept, whatever it holds. It reads what convert reads, field for field as
// the collector's decoder does, and fails where that decoder fails on the
// fields it reads.
func decodeProto(b []byte, emit func(*spans.Span)) error {
	return eachField(b, func(f field) error {
		if f.num != 1 {
			return nil
		}
		if f.typ != wireLen {
			return wrongType("resource_spans", f)
		}
		return resourceSpans(f.val, emit)
	})
}

// wrongType is the error of a field with another wire type than its own.
func wrongType(name string, f field) error {
	return fmt.Errorf("proto: wrong wire type %d for field %s", f.typ, name)
}

// resourceSpans reads one ResourceSpans: its resource's service.name
// first, wherever the resource is written, then its spans: those of its
// scope_spans, or of the field OTLP before 0.15 named so (1000) when it
// has none, as the collector reads them.
func resourceSpans(b []byte, emit func(*spans.Span)) error {
	var svc attrs
	scopes := int32(1000)
	err := eachField(b, func(f field) error {
		if f.num == 2 {
			scopes = 2
		}
		if f.num != 1 {
			return nil
		}
		if f.typ != wireLen {
			return wrongType("resource", f)
		}
		return eachField(f.val, func(g field) error {
			if g.num != 1 {
				return nil
			}
			if g.typ != wireLen {
				return wrongType("attributes", g)
			}
			return svc.add(g.val, serviceKeys, emit != nil)
		})
	})
	if err != nil {
		return err
	}
	service := bounded(svc.val[attrService], maxText)
	return eachField(b, func(f field) error {
		if f.num != 2 && f.num != 1000 {
			return nil
		}
		if f.typ != wireLen {
			return wrongType("scope_spans", f)
		}
		if f.num != scopes {
			return nil
		}
		return eachField(f.val, func(g field) error {
			if g.num != 2 {
				return nil
			}
			if g.typ != wireLen {
				return wrongType("spans", g)
			}
			return protoSpan(g.val, service, emit)
		})
	})
}

// protoSpan reads one Span and hands it, converted, to emit.
func protoSpan(b []byte, service string, emit func(*spans.Span)) error {
	var a attrs
	epoch := time.Unix(0, 0).UTC() // an unset time, as the collector's decoder reads it
	s := spans.Span{Service: service, Start: epoch, End: epoch}
	var kind uint64
	err := eachField(b, func(f field) error {
		switch f.num {
		case 1, 2, 4, 5, 9:
			if f.typ != wireLen {
				return wrongType("of number "+strconv.Itoa(int(f.num)), f)
			}
		case 6:
			if f.typ != wireVarint {
				return wrongType("kind", f)
			}
		case 7, 8:
			if f.typ != wireI64 {
				return wrongType("time", f)
			}
		}
		switch f.num {
		case 1:
			return id(s.Trace[:], f.val, "trace_id")
		case 2:
			return id(s.ID[:], f.val, "span_id")
		case 4:
			return id(s.Parent[:], f.val, "parent_span_id")
		case 5:
			if emit != nil { // checking only: no text is made
				s.Name = text(f.val, maxText)
			}
		case 6:
			kind = f.x
		case 7:
			s.Start = time.Unix(0, int64(f.x)).UTC()
		case 8:
			s.End = time.Unix(0, int64(f.x)).UTC()
		case 9:
			return a.add(f.val, spanKeys, emit != nil)
		}
		return nil
	})
	if err != nil || emit == nil {
		return err
	}
	switch int32(kind) { // an enum, read as int32 as the collector does
	case 2: // SPAN_KIND_SERVER
		s.Kind = spans.KindServer
	case 3: // SPAN_KIND_CLIENT
		s.Kind = spans.KindClient
	}
	a.fill(&s)
	emit(&s)
	return nil
}

// id reads a trace or span id: all its bytes, or none (a zero id).
func id(dst []byte, b []byte, name string) error {
	switch len(b) {
	case 0:
		clear(dst)
	case len(dst):
		copy(dst, b)
	default:
		return errors.New("proto: " + name + " of " + strconv.Itoa(len(b)) + " bytes, want " + strconv.Itoa(len(dst)))
	}
	return nil
}

// The attributes convert reads, by their place in attrs.
const (
	attrService = iota
	attrDBSystem
	attrDBSystemName
	attrDBStatement
	attrDBQueryText
	attrHTTPRequestMethod
	attrHTTPMethod
	attrURLFull
	attrHTTPURL
	attrServerAddress
	attrNetPeerName
	attrHTTPHost
	attrServerPort
	attrNetPeerPort
	attrCount
)

var (
	serviceKeys = map[string]int{"service.name": 0}
	spanKeys    = map[string]int{"db.system": attrDBSystem, "db.system.name": attrDBSystemName, "db.statement": attrDBStatement,
		"db.query.text": attrDBQueryText, "http.request.method": attrHTTPRequestMethod, "http.method": attrHTTPMethod,
		"url.full": attrURLFull, "http.url": attrHTTPURL, "server.address": attrServerAddress, "net.peer.name": attrNetPeerName,
		"http.host": attrHTTPHost, "server.port": attrServerPort, "net.peer.port": attrNetPeerPort}
)

// attrs holds the first value of each attribute convert reads.
type attrs struct {
	val [attrCount]string
	set [attrCount]bool
}

// add reads one KeyValue, keeping its value (when keep) when keys names it
// and it is the first of its key. Only a string value is text (as str
// reads it).
func (a *attrs) add(b []byte, keys map[string]int, keep bool) error {
	var key, value []byte
	var kind int32 // the AnyValue field set: 1 a string, 3 an int
	var num uint64
	err := eachField(b, func(f field) error {
		switch f.num {
		case 1:
			if f.typ != wireLen {
				return wrongType("key", f)
			}
			key = f.val
		case 2:
			if f.typ != wireLen {
				return wrongType("value", f)
			}
			return eachField(f.val, func(g field) error { // a oneof, merged: the last value written wins
				if err := checkValueType(g); err != nil || g.num < 1 || g.num > 8 {
					return err
				}
				kind, value, num = g.num, g.val, g.x
				return nil
			})
		}
		return nil
	})
	if err != nil || !keep {
		return err
	}
	i, ok := keys[string(key)]
	if !ok || a.set[i] {
		return nil
	}
	a.set[i] = true
	switch {
	case kind == 1:
		a.val[i] = string(value)
	case kind == 3 && (i == attrServerPort || i == attrNetPeerPort): // a port is an int in the conventions
		a.val[i] = strconv.FormatInt(int64(num), 10)
	}
	return nil
}

// checkValueType fails on an AnyValue field of the wrong wire type.
func checkValueType(g field) error {
	want := int8(wireLen)
	switch g.num {
	case 2, 3, 8:
		want = wireVarint
	case 4:
		want = wireI64
	case 1, 5, 6, 7:
	default:
		return nil
	}
	if g.typ != want {
		return wrongType("value", g)
	}
	return nil
}

// fill sets the span's database and peer fields from its attributes, as
// convert does.
func (a *attrs) fill(s *spans.Span) {
	s.DBSystem = bounded(firstOf(a, attrDBSystem, attrDBSystemName), maxText)
	s.Statement = bounded(firstOf(a, attrDBStatement, attrDBQueryText), maxStatement)
	if s.Kind == spans.KindClient && s.DBSystem == "" && firstOf(a, attrHTTPRequestMethod, attrHTTPMethod, attrURLFull, attrHTTPURL) != "" {
		s.Host = peerHost(firstOf(a, attrServerAddress, attrNetPeerName, attrHTTPHost), firstOf(a, attrServerPort, attrNetPeerPort), firstOf(a, attrURLFull, attrHTTPURL))
	}
}

// firstOf returns the first of the attributes at places is that is not empty.
func firstOf(a *attrs, is ...int) string {
	for _, i := range is {
		if a.val[i] != "" {
			return a.val[i]
		}
	}
	return ""
}

// text returns b as a string bounded to n bytes, copying no more than it keeps.
func text(b []byte, n int) string {
	return bounded(string(b[:min(len(b), n+utf8.UTFMax)]), n)
}
