// Package sample holds the leaf types shared by the engine (which produces
// measurements) and the metrics package (which aggregates them).
package sample

// Kind classifies how a request ended. Everything but OK is a failure of
// http_req_failed; the kinds are the failure breakdown in summaries.
type Kind uint8

// The outcome kinds, in the order summaries list them.
const (
	OK          Kind = iota // a response with status < 400
	HTTP4xx                 // a response with status 400..499
	HTTP5xx                 // a response with status >= 500
	Timeout                 // no complete response within the request timeout
	ConnRefused             // the target refused the TCP connection
	ConnReset               // the connection was reset or closed mid-request
	DNS                     // the host name did not resolve
	TLS                     // the TLS handshake or certificate check failed
	Other                   // any other transport error
	// Interrupted is a request cut off by the end of the run (graceful stop,
	// Ctrl-C, abort_on_fail) before its response was complete; its duration
	// is the time it had waited so far, a lower bound.
	Interrupted
	Redirect // too many redirects, a loop, or a redirect to a host the test does not allow
	// The gRPC status codes other than OK, in their numeric order from
	// CANCELLED (1): a call that ended with one fails with its kind.
	GRPCCancelled
	GRPCUnknown
	GRPCInvalidArgument
	GRPCDeadlineExceeded
	GRPCNotFound
	GRPCAlreadyExists
	GRPCPermissionDenied
	GRPCResourceExhausted
	GRPCFailedPrecondition
	GRPCAborted
	GRPCOutOfRange
	GRPCUnimplemented
	GRPCInternal
	GRPCUnavailable
	GRPCDataLoss
	GRPCUnauthenticated
	NumKinds // the number of kinds; not a kind
)

// New kinds are appended, never inserted: run.db stores kinds by number.
var kindNames = [NumKinds]string{"ok", "http_4xx", "http_5xx", "timeout", "conn_refused", "conn_reset", "dns", "tls", "other", "interrupted", "redirect",
	"grpc_cancelled", "grpc_unknown", "grpc_invalid_argument", "grpc_deadline_exceeded", "grpc_not_found",
	"grpc_already_exists", "grpc_permission_denied", "grpc_resource_exhausted", "grpc_failed_precondition",
	"grpc_aborted", "grpc_out_of_range", "grpc_unimplemented", "grpc_internal", "grpc_unavailable",
	"grpc_data_loss", "grpc_unauthenticated"}

// String returns the kind's stable name, as used in summary.json and run.db.
func (k Kind) String() string {
	if k < NumKinds {
		return kindNames[k]
	}
	return "unknown"
}

// ParseKind returns the kind with the given stable name.
func ParseKind(s string) (Kind, bool) {
	for i, n := range kindNames {
		if n == s {
			return Kind(i), true
		}
	}
	return 0, false
}

// KindOfStatus returns the kind of a received HTTP status code.
func KindOfStatus(status int) Kind {
	switch {
	case status >= 500:
		return HTTP5xx
	case status >= 400:
		return HTTP4xx
	default:
		return OK
	}
}
