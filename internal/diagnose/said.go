package diagnose

import (
	"strings"

	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/units"
)

// saidWidth is how much of what the target said a finding quotes: the
// sentence that names the bottleneck; the report's errors table has it whole.
const saidWidth = 100

// targetSaid is the message the target answered failures of kind k with
// most often, quoted for a finding's evidence: an HTTP error body's words
// after the status ("500: HikariPool-1 - Connection is not available…")
// or a gRPC status message. "" when the target said nothing
// beyond its status, or k is a failure the target did not word (a timeout).
func (c *context) targetSaid(k sample.Kind) string {
	if c.run == nil || !targetWorded(k) {
		return ""
	}
	msg, status, most := "", 0, int64(0)
	for i := range c.run.Endpoints {
		for _, g := range c.run.Endpoints[i].Errors {
			if g.Kind != k {
				continue
			}
			for _, s := range g.Samples {
				if s.Count > most && said(s.Message) {
					msg, status, most = s.Message, s.Status, s.Count
				}
			}
		}
	}
	if msg == "" {
		return ""
	}
	return `"` + units.Cut(sample.CleanMessage(sample.ShortStatus(status, msg), false), saidWidth) + `"`
}

// targetWorded reports the failure kinds whose message the target wrote:
// an HTTP status's body, a gRPC status's message.
func targetWorded(k sample.Kind) bool {
	return k == sample.HTTP4xx || k == sample.HTTP5xx || k >= sample.GRPCCancelled && k < sample.NumKinds
}

// said reports whether a failure's message has words after its status
// ("500 Internal Server Error: …", "UNAVAILABLE: …").
func said(msg string) bool {
	_, rest, ok := strings.Cut(msg, ": ")
	return ok && strings.TrimSpace(rest) != ""
}

// withSaid is an evidence line's parts about failures of kind k, then
// what the target said most often with them, when it said something.
func withSaid(c *context, k sample.Kind, parts ...any) []any {
	if said := c.targetSaid(k); said != "" {
		parts = append(parts, ", most often ", name(said))
	}
	return parts
}
