package engine

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
)

// response is what checks and extractions see of a reply. A VU reuses one.
type response struct {
	status  int
	header  http.Header
	body    bytes.Buffer
	hasBody bool // the body was kept (a check or extraction needs it)
	doc     any  // the body decoded as JSON, on first use
	docErr  error
	decoded bool
}

func (r *response) reset() {
	r.status, r.header, r.hasBody, r.doc, r.docErr, r.decoded = 0, nil, false, nil, nil, false
	r.body.Reset()
}

// read consumes the body, keeping it when keep is set, and returns its size.
func (r *response) read(resp *http.Response, keep bool) (int64, error) {
	if keep {
		r.hasBody = true
		return r.body.ReadFrom(resp.Body)
	}
	return io.Copy(io.Discard, resp.Body)
}

// json returns the body decoded as JSON; numbers stay json.Number so that
// ids and amounts compare exactly.
func (r *response) json() (any, error) {
	if !r.decoded {
		r.decoded = true
		dec := json.NewDecoder(bytes.NewReader(r.body.Bytes()))
		dec.UseNumber()
		r.docErr = dec.Decode(&r.doc)
	}
	return r.doc, r.docErr
}
