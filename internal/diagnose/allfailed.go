package diagnose

import (
	"sort"
	"strings"

	"github.com/loadlens/loadlens/internal/metrics"

	"github.com/loadlens/loadlens/internal/sample"
)

// failureWords says, per failure kind, what a request failed with and what
// it means when every request did.
var failureWords = [sample.NumKinds]struct{ what, means string }{
	sample.HTTP4xx:     {"answered with a 4xx status", "the target rejected every request: check the URL, method, headers and credentials"},
	sample.HTTP5xx:     {"answered with a 5xx status", "the target failed every request"},
	sample.Timeout:     {"timed out", "the target did not finish answering within the timeout"},
	sample.ConnRefused: {"connection refused", "the target is not reachable: nothing accepts connections at its address"},
	sample.ConnReset:   {"connection reset", "the target closed or reset every connection before its answer was complete"},
	sample.DNS:         {"DNS failure", "the host name does not resolve"},
	sample.TLS:         {"TLS failure", "the TLS handshake failed (certificate, name or protocol)"},
	sample.Other:       {"transport error or malformed response", "no request got through; see the error samples"},
	sample.Interrupted: {"cut off by the end of the run", "no response came before the run ended: the target accepted the {requests} but did not answer"},
	sample.Redirect:    {"redirect failure", "the redirects did not end at a host the test allows (a loop, too many hops, or another host)"},
	// gRPC calls: what the status code means when every call ended with it
	sample.GRPCCancelled:          {"gRPC status CANCELLED", "every call was cancelled before it ended"},
	sample.GRPCUnknown:            {"gRPC status UNKNOWN", "the server failed every call with an error it did not classify"},
	sample.GRPCInvalidArgument:    {"gRPC status INVALID_ARGUMENT", "the server rejected every call's message: check the message and the method"},
	sample.GRPCDeadlineExceeded:   {"gRPC status DEADLINE_EXCEEDED", "no call finished within its deadline (the step's timeout)"},
	sample.GRPCNotFound:           {"gRPC status NOT_FOUND", "the server found nothing for any call"},
	sample.GRPCAlreadyExists:      {"gRPC status ALREADY_EXISTS", "every call asked to create what already exists"},
	sample.GRPCPermissionDenied:   {"gRPC status PERMISSION_DENIED", "the server refused every call: check the metadata's credentials"},
	sample.GRPCResourceExhausted:  {"gRPC status RESOURCE_EXHAUSTED", "the server ran out of a resource or limited every call (quota, message size)"},
	sample.GRPCFailedPrecondition: {"gRPC status FAILED_PRECONDITION", "the server's state refused every call"},
	sample.GRPCAborted:            {"gRPC status ABORTED", "every call was aborted (a conflict, a transaction)"},
	sample.GRPCOutOfRange:         {"gRPC status OUT_OF_RANGE", "every call asked beyond a valid range"},
	sample.GRPCUnimplemented:      {"gRPC status UNIMPLEMENTED", "the server does not implement the method: check its name and the server"},
	sample.GRPCInternal:           {"gRPC status INTERNAL", "the server failed every call"},
	sample.GRPCUnavailable:        {"gRPC status UNAVAILABLE", "the server is not reachable or not serving"},
	sample.GRPCDataLoss:           {"gRPC status DATA_LOSS", "the server reported lost or corrupt data on every call"},
	sample.GRPCUnauthenticated:    {"gRPC status UNAUTHENTICATED", "the server refused every call's credentials: check the metadata"},
}

// allFailed reports whether the run sent requests and every one failed.
func (c *context) allFailed() bool {
	if c.run == nil {
		return false
	}
	var requests, failed int64
	for _, s := range c.run.Series {
		requests += s.Requests
		failed += s.Failed
	}
	return requests > 0 && failed == requests
}

// allFailedRule names how every request failed, from the first second: a
// run that got no answer has no bottleneck to find, only a fault.
func allFailedRule(c *context) []Finding {
	if !c.allFailed() {
		return nil
	}
	first, last := c.all[0].sec, c.all[len(c.all)-1].sec
	onsetSec := first
	for _, s := range c.all {
		if s.x > 0 {
			onsetSec = s.sec
			break
		}
	}
	var byKind [sample.NumKinds]int64
	for _, s := range c.run.Series {
		for k := sample.OK + 1; k < sample.NumKinds; k++ {
			byKind[k] += s.Failures[k]
		}
	}
	var kinds []sample.Kind
	for k := sample.OK + 1; k < sample.NumKinds; k++ {
		if byKind[k] > 0 {
			kinds = append(kinds, k)
		}
	}
	sort.SliceStable(kinds, func(i, j int) bool { return byKind[kinds[i]] > byKind[kinds[j]] })

	b := newBuilder(KindAllFailed, Critical)
	total := b.add(c.fig(c.client(SrcRequests), StatSum, first, last, UnitCount, c.counts().Many+" sent"))
	onset := b.second(onsetSec, StatOnset, "the first second with a "+c.counts().One)
	main := kinds[0]
	fw, own := failureOf(c.run, main)
	words, remedies := struct{ what, means string }{fw.what, fw.means}, fw.remedies
	if main == sample.TLS && handshakeTimedOut(c.run) {
		words, remedies = handshakeTimeoutWords, handshakeTimeoutRemedies
	}
	if main == sample.Interrupted && !own && len(kinds) == 1 && answersBegan(c.run) {
		words, remedies = endlessWords, endlessRemedies
	}
	n := b.add(c.fig(c.client(SrcFailed, "kind", main.String()), StatSum, first, last, UnitCount, main.String()+" failures"))
	title := []any{"Every " + c.counts().One + " failed: ", n, " of ", total, " ", name(words.what), " from ", onset, " — ", c.unitWords().Replace(words.means)}
	b.evidence(n, withSaid(c, main, n, " of ", total, c.noun(b, total, " ", " failed with "), name(main.String()), " from ", onset)...)
	for i, k := range kinds[1:] {
		m := b.add(c.fig(c.client(SrcFailed, "kind", k.String()), StatSum, first, last, UnitCount, k.String()+" failures"))
		if i < 2 {
			kw, _ := failureOf(c.run, k)
			title = append(title, "; ", m, " ", name(kw.what))
		}
		b.evidence(m, withSaid(c, k, m, " failed with ", name(k.String()))...)
	}
	b.title(title...)
	b.f.Remedies = remedies
	return []Finding{b.done(onsetSec, last)}
}

// handshakeTimeoutWords name a TLS failure that was a handshake with no
// answer: the server took the connection and said nothing, which a
// certificate fault (an answer the client refused) does not look like.
var handshakeTimeoutWords = struct{ what, means string }{"timed out in the TLS handshake",
	"the target accepted the connections but never answered the handshake: no certificate was offered, so none was rejected"}

// handshakeTimeoutRemedies are what to look at when no handshake was answered.
var handshakeTimeoutRemedies = []string{
	"check that the port serves TLS at all (curl -v https://host:port/ stops after the Client Hello when it does not)",
	"if it does, find what holds the server's handshakes: its accept backlog, its TLS threads, a proxy in front of it",
}

// handshakeTimedOut reports whether most sampled TLS failures were
// handshakes that no answer finished (the engine's messages say so).
func handshakeTimedOut(run *metrics.Run) bool {
	var timedOut, all int64
	for _, ep := range run.Endpoints {
		for _, g := range ep.Errors {
			if g.Kind != sample.TLS {
				continue
			}
			for _, s := range g.Samples {
				all += s.Count
				if strings.Contains(s.Message, "TLS handshake unfinished") || strings.Contains(s.Message, "TLS handshake timeout") {
					timedOut += s.Count
				}
			}
		}
	}
	return all > 0 && 2*timedOut > all
}

// allFailedRemedies are the first things to look at per failure kind.
func allFailedRemedies(k sample.Kind) []string {
	switch k {
	case sample.ConnRefused, sample.DNS:
		return []string{"check that the target runs and listens at the address the test names (base_url, port)",
			"run the test from a machine that can reach the target (firewall, VPN, container network)"}
	case sample.TLS:
		return []string{"check the target's certificate (expiry, name, chain) and the URL's host name",
			"for a test certificate, trust its CA on the generator's machine"}
	case sample.Timeout, sample.Interrupted:
		return []string{"check that the target answers one {request} at all (send it by hand: curl, grpcurl, websocat), then look at what it waits on",
			"raise the step's timeout only if answers this slow are acceptable"}
	case sample.HTTP4xx:
		return []string{"check the URL, method, headers and credentials against one request by hand",
			"if these statuses are the expected answers, list them in expect_status"}
	case sample.Redirect:
		return []string{"follow the redirect by hand; allow its host with allow_hosts if it is meant, or fix the loop"}
	}
	return []string{"read the error samples in the summary: they name what failed"}
}

// answersBegan reports whether the responses' bytes arrived: a run whose
// every request the end cut off, yet which received, was answered with
// bodies that did not end (a server streaming 64 KiB chunks forever read
// "the target … did not answer" over 19.2 GB received).
func answersBegan(run *metrics.Run) bool {
	for _, s := range run.Series {
		if s.Received > 0 {
			return true
		}
	}
	return false
}

// endlessWords and endlessRemedies name answers whose bodies did not end.
var (
	endlessWords = struct{ what, means string }{"cut off by the end of the run",
		"the target answered, but no response ended before the run did: a body that does not end (a stream, a long download)"}
	endlessRemedies = []string{
		"fetch one response by hand (curl -N) and see whether its body ends: an endless stream is read with an sse: step, not a request",
		"give the step a timeout shorter than the run, so each request ends and is counted as timed out",
	}
)
