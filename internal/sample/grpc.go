package sample

import "strings"

// grpcCodes are the gRPC status codes' names, by number (the gRPC
// specification's, which never change).
var grpcCodes = [...]string{"OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND",
	"ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "ABORTED",
	"OUT_OF_RANGE", "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS", "UNAUTHENTICATED"}

// GRPCCodeName returns a gRPC status code's name (NOT_FOUND), or "" for
// a number the specification does not define.
func GRPCCodeName(code int) string {
	if code >= 0 && code < len(grpcCodes) {
		return grpcCodes[code]
	}
	return ""
}

// GRPCCode returns the number of a gRPC status code's name, in any case.
func GRPCCode(name string) (int, bool) {
	for i, n := range grpcCodes {
		if strings.EqualFold(n, name) {
			return i, true
		}
	}
	return 0, false
}

// GRPCCodeNames returns every code's name in numeric order, for messages.
func GRPCCodeNames() []string { return grpcCodes[:] }

// KindOfGRPC returns the kind of a call that ended with a gRPC status:
// OK, or the code's own failure kind (Other for an undefined code).
func KindOfGRPC(code int) Kind {
	switch {
	case code == 0:
		return OK
	case code > 0 && code < len(grpcCodes):
		return GRPCCancelled + Kind(code-1)
	}
	return Other
}
