package report

import (
	"fmt"

	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/units"
)

// Interrupted returns how many samples (requests, calls, sessions) the end
// of the run cut off (graceful stop, Ctrl-C, abort_on_fail): they count as
// failed, of kind interrupted, with the time they had lasted as their duration.
func (in *Input) Interrupted() int64 {
	var n int64
	for i := range in.Run.Endpoints {
		n += in.Run.Endpoints[i].Failures[sample.Interrupted]
	}
	return n
}

// Truncated returns how many response bodies were longer than their step's
// max_body, so that checks and extractions saw only their start.
func (in *Input) Truncated() int64 {
	var n int64
	for i := range in.Run.Endpoints {
		n += in.Run.Endpoints[i].Truncated
	}
	return n
}

// BodyCap returns the max_body that every endpoint with a truncated body
// shares, or 0 when they differ or it is unknown.
func (in *Input) BodyCap() int64 {
	var shared int64
	for i := range in.Run.Endpoints {
		if in.Run.Endpoints[i].Truncated == 0 {
			continue
		}
		c := in.bodyCap(i)
		if c == 0 || shared != 0 && c != shared {
			return 0
		}
		shared = c
	}
	return shared
}

// bodyCap returns endpoint i's max_body, 0 when unknown.
func (in *Input) bodyCap(i int) int64 {
	if i < len(in.BodyCaps) {
		return in.BodyCaps[i]
	}
	return 0
}

// Redirects returns how many redirects the requests followed: each was a
// request the target received inside one sample (a chain is one request in
// every figure, as in k6).
func (in *Input) Redirects() int64 {
	var n int64
	for i := range in.Run.Endpoints {
		n += in.Run.Endpoints[i].Redirects
	}
	return n
}

// redirectsText says how many requests the target got beyond the samples,
// so the figures reconcile with its access log; "" when none.
func (in *Input) redirectsText() string {
	n := in.Redirects()
	if n == 0 {
		return ""
	}
	tot := in.Run.Total()
	return fmt.Sprintf("redirects followed: %s, so the target got %s, %s of them redirects; a request and "+
		"the redirects it followed count as one request here, timed from its start to the last answer.",
		units.Count(n), units.CountOf(tot.Requests+n, "request", "requests"), units.Count(n))
}

// cutOffText says that n samples of unit u (requests, calls, sessions)
// were cut off by the run's end, in the run's words: "3 sessions were cut
// off", never "3 requests" for a WebSocket run's sessions.
func cutOffText(n int64, u units.Unit) string {
	u = u.Or()
	spent := "waited" // a request or a call waits for its answer; a session is held
	if u == units.Sessions {
		spent = "lasted"
	}
	if n == 1 {
		return "1 " + u.One + " was cut off by the end of the run (interrupted): it counts as failed, " +
			"and its duration is a lower bound (the time it had " + spent + ")."
	}
	return fmt.Sprintf("%s %s were cut off by the end of the run (interrupted): they count as failed, "+
		"and their durations are lower bounds (the time they had %s).", units.Count(n), u.Many, spent)
}

// Accounting returns what a reader must know about the requests behind the
// figures: how many the end of the run cut off, how many bodies were
// truncated, and how many redirects were followed inside them. Every
// rendering shows these same sentences.
func Accounting(in *Input) []string {
	var out []string
	if n := in.Interrupted(); n > 0 {
		out = append(out, cutOffText(n, runUnit(in.Run)))
	}
	if n := in.Truncated(); n > 0 {
		bodies, their := units.Count(n)+" response bodies were", "their"
		if n == 1 {
			bodies, their = "1 response body was", "its"
		}
		if c := in.BodyCap(); c > 0 {
			out = append(out, fmt.Sprintf("%s longer than max_body (%s): checks and extractions saw only %s first %s.",
				bodies, units.Size(c), their, units.Size(c)))
		} else {
			out = append(out, fmt.Sprintf("%s truncated past max_body: checks and extractions saw only %s start.", bodies, their))
		}
	}
	if t := in.redirectsText(); t != "" {
		out = append(out, t)
	}
	return append(out, notSentTexts(in.Run)...)
}
