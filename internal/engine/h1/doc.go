// Package h1 is a lean HTTP/1.1 client for the engine's hot path. Each VU
// owns a Client with its own kept-alive connection; requests are written
// from reused buffers and responses parsed in place, so a request costs no
// allocation and no goroutine besides the VU's own. TLS and HTTP/2 stay
// with net/http, which the engine uses for https URLs.
//
// Ownership: a Client is used by one goroutine; only Abort may be called
// from another. Slices in a Response point into the Client's buffers and
// are valid until its next Do.
package h1
