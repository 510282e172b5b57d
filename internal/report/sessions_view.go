package report

import (
	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/units"
)

// sessionHead is the header of report.html's and the Markdown summary's
// sessions table of r, after its first column (the endpoint): its count
// column names what the rows count (sessionsCounted), its rate messages.
func sessionHead(r *metrics.Run) []string {
	return []string{"Protocol", sessionsCounted(r), "Sent", "Received", "Msgs received/s", "First msg p50", "First msg p95",
		"Length p50", "Length p95", "Reply p95"}
}

// sessionsCounted names what the session endpoints' samples count, in
// their units (units.ForProtocol): "Calls" when they are all gRPC,
// "Sessions" when none is, "Calls, sessions" for a mix.
func sessionsCounted(r *metrics.Run) string {
	var calls, sessions bool
	for _, e := range r.Layout.Endpoints {
		switch {
		case e.Protocol == "":
		case units.ForProtocol(e.Protocol) == units.Calls:
			calls = true
		default:
			sessions = true
		}
	}
	switch {
	case calls && sessions:
		return "Calls, sessions"
	case calls:
		return "Calls"
	}
	return "Sessions"
}

// tableRow is one row of a table whose first cell is a name and whose
// others are figures, already written.
type tableRow struct {
	Name  string
	Cells []string
}

// sessionRows are the session protocols' endpoints (SSE, WebSocket,
// gRPC) with the facts every protocol reports alike: messages, time to
// first message, session length and reply time. Nil for a run without
// sessions, so an HTTP run's pages keep their sections.
func sessionRows(r *metrics.Run) []tableRow {
	var rows []tableRow
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
		rows = append(rows, tableRow{Name: endpointLabel(r, i), Cells: []string{r.Layout.Endpoints[i].Protocol,
			units.Count(f.Sessions), units.Count(f.MsgsSent), units.Count(f.MsgsReceived), rate,
			quantile(f.FirstMsg, 50), quantile(f.FirstMsg, 95), quantile(f.Session, 50), quantile(f.Session, 95), quantile(f.Reply, 95)}})
	}
	return rows
}

// statusHead is the header of the statuses table, after the endpoint.
var statusHead = []string{"Status", "Count", "Share"}

// statusRows break each session endpoint's sessions (a gRPC endpoint's
// calls) down by how they ended, the most frequent first: OK, then each
// failure kind under its status's name (a gRPC code: UNAVAILABLE), so
// that a gRPC step's status codes are counted as grpc-go names them. Nil
// for a run without sessions.
func statusRows(r *metrics.Run) []tableRow {
	var rows []tableRow
	for i := range r.Endpoints {
		e := &r.Endpoints[i]
		if i >= len(r.Layout.Endpoints) || r.Layout.Endpoints[i].Protocol == "" || e.Requests == 0 {
			continue
		}
		name := endpointLabel(r, i)
		for _, c := range endpointStatuses(e) {
			rows = append(rows, tableRow{Name: name, Cells: []string{c.Name, units.Count(c.Count), units.Percent(ratio(c.Count, e.Requests))}})
		}
	}
	return rows
}

// statusName names how a session ended: a gRPC failure kind by its status
// code's name (DEADLINE_EXCEEDED), any other kind by its own name
// (conn_refused, http_4xx for a refused WebSocket handshake).
func statusName(k sample.Kind) string {
	if k >= sample.GRPCCancelled && k <= sample.GRPCUnauthenticated {
		return sample.GRPCCodeName(int(k-sample.GRPCCancelled) + 1)
	}
	return k.String()
}

// customHead is the header of the custom metrics' table, after the name.
var customHead = []string{"Type", "Values", "Figures"}

// customRows are the test's custom metrics (metrics: and add:) as the text
// summary shows them; nil when the test declares none.
func customRows(r *metrics.Run) []tableRow {
	cs := customMetrics(r)
	secs := max(r.Elapsed().Seconds(), 1e-9)
	var rows []tableRow
	for _, c := range cs {
		values := units.Count(c.tot.Count)
		if c.tot.Invalid > 0 {
			values += " (+" + units.Count(c.tot.Invalid) + " not recorded)"
		}
		rows = append(rows, tableRow{Name: c.name, Cells: []string{kindName(c.info), values, customFigures(c, secs)}})
	}
	return rows
}
