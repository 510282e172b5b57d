package report

import (
	"sort"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/sample"
)

// SessionRow is one session endpoint's facts over the run so far, as the
// live dashboard's sessions panel shows them; durations are milliseconds.
type SessionRow struct {
	Endpoint int           `json:"i"` // in PageMeta.Endpoints
	Protocol string        `json:"proto"`
	Sessions int64         `json:"n"`
	Sent     int64         `json:"tx"` // messages
	Received int64         `json:"rx"`
	RxRate   float64       `json:"rxps"`              // messages received per second of the run so far, as report.html's Received/s
	FirstP95 *float64      `json:"first95,omitempty"` // time to first message; nil: no session received one
	ReplyP95 *float64      `json:"reply95,omitempty"` // nil: no session had a reply
	Statuses []StatusCount `json:"st"`                // how its sessions ended, the most frequent first
}

// StatusCount is how many sessions of an endpoint ended one way: OK, a
// gRPC status by its code's name, or a failure kind.
type StatusCount struct {
	Name  string `json:"s"`
	Count int64  `json:"n"`
}

// NewSessionRows returns a row per session endpoint (SSE, WebSocket,
// gRPC), sessions or not yet, so that the dashboard's panel shows from a
// session run's first second; nil for a run without session steps, whose
// feed is then as before.
func NewSessionRows(r *metrics.Run) []SessionRow {
	var rows []SessionRow
	secs := r.Elapsed().Seconds()
	for i := range r.Endpoints {
		if i >= len(r.Layout.Endpoints) || r.Layout.Endpoints[i].Protocol == "" {
			continue
		}
		row := SessionRow{Endpoint: i, Protocol: r.Layout.Endpoints[i].Protocol, Statuses: endpointStatuses(&r.Endpoints[i])}
		if f := r.Endpoints[i].Facts; f != nil {
			row.Sessions, row.Sent, row.Received = f.Sessions, f.MsgsSent, f.MsgsReceived
			if secs > 0 {
				row.RxRate = float64(f.MsgsReceived) / secs
			}
			row.FirstP95, row.ReplyP95 = p95ms(f.FirstMsg), p95ms(f.Reply)
		}
		rows = append(rows, row)
	}
	return rows
}

// p95ms is h's 95th percentile in milliseconds; nil when h is empty.
func p95ms(h *metrics.Hist) *float64 {
	if h.Count() == 0 {
		return nil
	}
	v := ms(h.Quantile(95))
	return &v
}

// endpointStatuses counts e's samples by how they ended, the most
// frequent first (OK first on a tie), leaving out what never happened;
// never nil.
func endpointStatuses(e *metrics.EndpointTotal) []StatusCount {
	counts := []StatusCount{{"OK", e.Requests - failed(e)}}
	for k := sample.OK + 1; k < sample.NumKinds; k++ {
		if e.Failures[k] > 0 {
			counts = append(counts, StatusCount{statusName(k), e.Failures[k]})
		}
	}
	sort.SliceStable(counts, func(a, b int) bool { return counts[a].Count > counts[b].Count })
	out := counts[:0]
	for _, c := range counts {
		if c.Count > 0 {
			out = append(out, c)
		}
	}
	return out
}
