package report

import (
	"strings"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/units"
)

// writeSessions prints a table of the session protocols' endpoints (SSE,
// WebSocket): their messages and the times between them, read from the
// facts every protocol reports alike. A run without sessions prints none.
func writeSessions(sb *strings.Builder, in *Input) {
	r := in.Run
	rows := [][]string{{"SESSION", strings.ToUpper(sessionsCounted(r)), "SENT", "RECEIVED", "MSGS/S", "FIRST P50", "FIRST P95", "GAP P95", "GAP MAX", "REPLY P95"}}
	secs := r.Elapsed().Seconds()
	for i := range r.Endpoints {
		f := r.Endpoints[i].Facts
		if f == nil || i >= len(r.Layout.Endpoints) {
			continue
		}
		rate := "-"
		if secs > 0 {
			rate = units.Rate(float64(f.MsgsReceived)/secs, "")
		}
		rows = append(rows, []string{endpointLabel(r, i), units.Count(f.Sessions), units.Count(f.MsgsSent), units.Count(f.MsgsReceived), rate,
			quantile(f.FirstMsg, 50), quantile(f.FirstMsg, 95), quantile(f.Gap, 95), quantile(f.Gap, 100), quantile(f.Reply, 95)})
	}
	if len(rows) == 1 {
		return
	}
	table(sb, "  ", "mrrrrrrrrr", rows)
	sb.WriteString("\n")
}

// quantile formats a histogram's q-th percentile, "-" when it is empty.
func quantile(h *metrics.Hist, q float64) string {
	if h.Count() == 0 {
		return "-"
	}
	return units.Duration(h.Quantile(q))
}
