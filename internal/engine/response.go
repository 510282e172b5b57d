package engine

import (
	"bytes"
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
	body      []byte      // the body, when a check or extraction needs it
	netBody   bytes.Buffer
	doc       any // the body decoded as JSON, on first use
	docErr    error
	decoded   bool
	scratch   []string
}

func (r *response) reset() {
	r.status, r.header, r.rawHeader, r.body, r.doc, r.docErr, r.decoded = 0, nil, nil, nil, nil, nil, false
	r.netBody.Reset()
}

// readNet consumes a net/http body, keeping it when keep is set, and returns its size.
func (r *response) readNet(resp *http.Response, keep bool) (int64, error) {
	if keep {
		n, err := r.netBody.ReadFrom(resp.Body)
		r.body = r.netBody.Bytes()
		return n, err
	}
	return io.Copy(io.Discard, resp.Body)
}

// headerValues returns the values of a response header.
func (r *response) headerValues(name string) []string {
	if r.header != nil {
		return r.header.Values(name)
	}
	r.scratch = h1.HeaderValues(r.rawHeader, name, r.scratch[:0])
	return r.scratch
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
