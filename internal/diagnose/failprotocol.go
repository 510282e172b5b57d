package diagnose

import (
	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/sample"
)

// failWords are how a failure kind reads in a finding and the first
// things to do about it.
type failWords struct {
	what, means string
	remedies    []string
}

// protoKind keys the words of a failure kind in one protocol's terms;
// protocol anySession is every session protocol (SSE, WebSocket, gRPC).
type protoKind struct {
	protocol string
	kind     sample.Kind
}

// anySession stands for every session protocol in protocolFailures.
const anySession = "*"

// protocolFailures word the failure kinds a session protocol shares with
// HTTP in that protocol's terms: a WebSocket handshake answered 403 is an
// http_4xx, a gRPC server that refuses connections a conn_refused, and
// HTTP's remedies (base_url, expect_status) do not apply to them. The one
// table of protocol names in diagnose; a protocol without an entry reads
// as HTTP does.
var protocolFailures = map[protoKind]failWords{
	{anySession, sample.ConnRefused}: {"connection refused", "the server is not reachable: nothing accepts connections at the step's address", []string{
		"check that the server runs and listens at the address the step names (its grpc:, ws: or sse: URL)",
		"run the test from a machine that can reach the server (firewall, VPN, container network)"}},
	{anySession, sample.DNS}: {"DNS failure", "the step's host name does not resolve", []string{
		"check the host name in the step's URL, and that the generator's resolver knows it"}},
	{"ws", sample.HTTP4xx}: {"WebSocket handshake refused with a 4xx status", "the server refused every WebSocket upgrade", []string{
		"open one connection by hand (websocat, or curl -i with the Upgrade headers) and read the status and its body",
		"check what the step sends against what the server requires: the path, Origin, subprotocols, the credentials in headers or the query"}},
	{"ws", sample.HTTP5xx}: {"WebSocket handshake failed with a 5xx status", "the server (or a proxy in front of it) failed every WebSocket upgrade", []string{
		"check that every proxy on the way passes the Upgrade and Connection headers (nginx: proxy_http_version 1.1 and proxy_set_header Upgrade)",
		"read the server's log for the failed upgrades"}},
	{"sse", sample.HTTP4xx}: {"event stream refused with a 4xx status", "the server refused every subscription", []string{
		"subscribe once by hand (curl -N -H 'Accept: text/event-stream' URL) and read the status",
		"check the URL, headers and credentials the step sends"}},
	{"grpc", sample.Other}: {"transport error or malformed message", "no call got through; see the error samples", []string{
		"read the error samples in the summary: they name what failed"}},
	{anySession, sample.Other}: {"transport error or malformed message", "no session got through; see the error samples", []string{
		"read the error samples in the summary: they name what failed"}},
	{"grpc", sample.Interrupted}: {"cut off by the end of the run", "no call ended before the run did: the server accepted the calls but did not finish them", []string{
		"call the method once by hand (grpcurl) to see whether it ends, and how long it takes unloaded",
		"give the step a timeout shorter than the run (the call's deadline), so each call ends and is counted"}},
	{"sse", sample.HTTP5xx}: {"event stream failed with a 5xx status", "the server failed every subscription", []string{
		"subscribe once by hand (curl -N -H 'Accept: text/event-stream' URL) and read the server's log for the failures"}},
}

// grpcRemedies are the first things to look at when every call ended
// with a gRPC status, by its kind; the other codes read their samples.
var grpcRemedies = map[sample.Kind][]string{
	sample.GRPCUnavailable: {
		"call the server once by hand (grpcurl -plaintext host:port list, without -plaintext for TLS) to see that it serves",
		"check the step's scheme against the port: grpc:// (plaintext) to a TLS port, or grpcs:// to a plaintext one, ends UNAVAILABLE",
		"with a proxy or load balancer in front, check that it speaks HTTP/2 to the server (h2c for plaintext)"},
	sample.GRPCDeadlineExceeded: {
		"call the method once by hand (grpcurl -max-time) to see how long it takes unloaded, then look at what it waits on",
		"raise the step's timeout (the call's deadline) only if answers this slow are acceptable"},
	sample.GRPCUnimplemented: {
		"list the server's methods (grpcurl host:port list, then describe the service) and check the step's method: package.Service/Method",
		"check that the .proto files or protoset match the server's version"},
	sample.GRPCUnauthenticated: {
		"check the step's metadata: the authorization key and its token (grpcurl -H shows what the server expects)"},
	sample.GRPCPermissionDenied: {
		"check the step's metadata: the credentials are accepted but not allowed this method"},
	sample.GRPCInvalidArgument: {
		"send the step's message once by hand (grpcurl -d) and read the status message: the server names the field it refused"},
}

// failureOf returns how failures of kind k read, in the words of the
// protocol whose endpoints failed with it: a gRPC status by its code with
// gRPC's remedies, a WebSocket handshake refused as such, and HTTP's
// words for HTTP or for endpoints of several protocols; own is true when
// the words are the protocol's rather than HTTP's.
func failureOf(run *metrics.Run, k sample.Kind) (w failWords, own bool) {
	if proto := failingProtocol(run, k); proto != "" {
		if w, ok := protocolFailures[protoKind{proto, k}]; ok {
			return w, true
		}
		if w, ok := protocolFailures[protoKind{anySession, k}]; ok {
			return w, true
		}
	}
	w = failWords{failureWords[k].what, failureWords[k].means, allFailedRemedies(k)}
	if r, ok := grpcRemedies[k]; ok {
		return failWords{w.what, w.means, r}, true
	}
	return w, false
}

// failingProtocol returns the protocol every endpoint that failed with k
// shares ("" for HTTP, or when endpoints of several protocols did).
func failingProtocol(run *metrics.Run, k sample.Kind) string {
	proto, seen := "", false
	for i := range run.Endpoints {
		if run.Endpoints[i].Failures[k] == 0 || i >= len(run.Layout.Endpoints) {
			continue
		}
		p := run.Layout.Endpoints[i].Protocol
		if seen && p != proto {
			return ""
		}
		proto, seen = p, true
	}
	return proto
}
