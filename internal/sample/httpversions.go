package sample

// HTTPVersions counts one endpoint's responses by the HTTP version they
// came in, as the client negotiated it (ALPN over TLS): k6's `proto` tag.
// Kept for the scenarios that ask for HTTP/2, where it may not be given.
type HTTPVersions struct {
	HTTP1 int64 `json:"HTTP/1.1,omitempty"`
	HTTP2 int64 `json:"HTTP/2,omitempty"`
}

// Any reports whether a response was counted.
func (v HTTPVersions) Any() bool { return v.HTTP1+v.HTTP2 > 0 }
