package engine

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"net/http"

	"github.com/loadlens/loadlens/internal/engine/h1"
)

// response is what checks and extractions see of a reply, from either
// client. A VU reuses one.
type response struct {
	status    int
	header    http.Header // from net/http
	rawHeader []byte      // from h1: raw header lines
	// from h1: whether rawHeader has a Set-Cookie and a Location field,
	// which every hop asks, noted by the parser instead of a scan
	rawCookie, rawLocation bool
	body                   []byte // the body (up to the step's max_body), when a check or extraction needs it
	netBody                bytes.Buffer
	plain                  bytes.Buffer // the decoded body of a gzip or deflate response (decodeBody)
	gz                     *gzip.Reader // reused by decodeBody
	doc                    any          // the body decoded as JSON, on first use
	docErr                 error
	decoded                bool
	cut                    bool // body is only the start, cut at max_body: a JSON error is that cut's (the run counts those)
	scratch                []string
	lean                   leanExchange // the lean client's, for h1Trip
}

// leanExchange is the lean client's request and response of one hop.
type leanExchange struct {
	req  h1.Request
	resp h1.Response
}

func (r *response) reset() {
	r.status, r.header, r.rawHeader, r.body, r.doc, r.docErr, r.decoded = 0, nil, nil, nil, nil, nil, false
	r.rawCookie, r.rawLocation, r.cut = false, false, false
	r.netBody.Reset()
}

// readNet consumes a net/http body. With keep it keeps up to limit bytes
// (0: all) and reads and discards the rest, marking the hop truncated, so
// a huge body costs time but not memory.
func (r *response) readNet(body io.Reader, keep bool, limit int64, res *hopResult) error {
	if !keep {
		_, err := io.Copy(io.Discard, body)
		return err
	}
	var err error
	if limit > 0 {
		if _, err = r.netBody.ReadFrom(io.LimitReader(body, limit)); err == nil {
			var rest int64
			rest, err = io.Copy(io.Discard, body)
			res.truncated = rest > 0
		}
	} else {
		_, err = r.netBody.ReadFrom(body)
	}
	r.body = r.netBody.Bytes()
	return err
}

// readNetError consumes an error response's net/http body, keeping its
// first limit bytes for the failure's message and discarding the rest.
func (r *response) readNetError(body io.Reader, limit int64, res *hopResult) error {
	_, err := r.netBody.ReadFrom(io.LimitReader(body, limit))
	if err == nil {
		var rest int64
		rest, err = io.Copy(io.Discard, body)
		res.errorCut = rest > 0
	}
	r.body = r.netBody.Bytes()
	return err
}

// headerValues returns the values of a response header.
func (r *response) headerValues(name string) []string {
	if r.header != nil {
		return r.header.Values(name)
	}
	r.scratch = h1.HeaderValues(r.rawHeader, name, r.scratch[:0])
	return r.scratch
}

// has reports whether the response has a header, without allocating.
func (r *response) has(name string) bool {
	if r.header != nil {
		return len(r.header[name]) > 0 // net/http keys are canonical, and so are the names asked for
	}
	switch name {
	case "Set-Cookie":
		return r.rawCookie
	case "Location":
		return r.rawLocation
	}
	return len(h1.HeaderValues(r.rawHeader, name, nil)) > 0
}

// json returns the body decoded as JSON; numbers stay json.Number so that
// ids and amounts compare exactly.
func (r *response) json() (any, error) {
	if !r.decoded {
		r.decoded = true
		dec := json.NewDecoder(bytes.NewReader(r.body))
		dec.UseNumber()
		r.docErr = dec.Decode(&r.doc)
	}
	return r.doc, r.docErr
}
