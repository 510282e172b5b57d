// Package spans joins the spans a target exported during a run to the
// requests loadlens sent, by trace id, and says per endpoint where the time
// went: the database (per statement), the cache, outgoing HTTP calls (per
// host), the service itself, and outside it (network and queueing). It also
// keeps, per endpoint, the trace ids of the slowest and of failed requests.
// It is pure apart from the Keeper's locks: data in, data out, no I/O.
package spans
