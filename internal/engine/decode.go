package engine

import (
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"io"
	"strings"
)

// decodeBody replaces a gzip- or deflate-encoded body with its decoded
// text, at most limit bytes of it (0: all), for the checks and extractions
// that read it, as k6 does: a test that sends Accept-Encoding: gzip would
// otherwise fail every body check on bytes nobody can read. Only steps
// whose checks read the body get here; Received stays the bytes on the
// wire. It reports whether the decoded text was cut at limit. A body that
// does not decode (cut at max_body, or not what its header says) keeps what
// decoded before the fault.
func (r *response) decodeBody(limit int64) (truncated bool) {
	enc := r.headerValues("Content-Encoding")
	if len(enc) != 1 || len(r.body) == 0 { // none, or stacked encodings: left as they are
		return false
	}
	var dec io.Reader
	switch strings.ToLower(strings.TrimSpace(enc[0])) {
	case "gzip", "x-gzip":
		if r.gz == nil {
			r.gz = new(gzip.Reader)
		}
		if r.gz.Reset(bytes.NewReader(r.body)) != nil {
			return false
		}
		dec = r.gz
	case "deflate": // RFC 9110: the zlib format
		z, err := zlib.NewReader(bytes.NewReader(r.body))
		if err != nil {
			return false
		}
		dec = z
	default:
		return false
	}
	r.plain.Reset()
	if limit > 0 {
		r.plain.ReadFrom(io.LimitReader(dec, limit)) //nolint:errcheck // a fault keeps what decoded before it
		var one [1]byte
		n, _ := dec.Read(one[:])
		truncated = n > 0
	} else {
		r.plain.ReadFrom(dec) //nolint:errcheck // as above
	}
	r.body, r.doc, r.docErr, r.decoded = r.plain.Bytes(), nil, nil, false
	return truncated
}
