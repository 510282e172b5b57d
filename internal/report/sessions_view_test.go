package report

import (
	"bytes"
	"html"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/sample"
)

// sessionsFixture is a 2-second run with an HTTP endpoint, an SSE feed, a
// WebSocket chat whose handshake was once refused, a gRPC method with
// three status codes, and three custom metrics.
func sessionsFixture(t *testing.T) *Input {
	t.Helper()
	layout := sample.Layout{Scenarios: []sample.ScenarioInfo{{Name: "default", Model: "vus"}},
		Endpoints: []sample.EndpointInfo{{Name: "GET /x", Method: "GET"}, {Name: "SSE /feed", Method: "GET", Protocol: "sse"},
			{Name: "WS /chat", Method: "GET", Protocol: "ws"}, {Name: "gRPC Echo/Say", Method: "POST", Protocol: "grpc"}},
		Metrics: []sample.MetricInfo{{Name: "orders", Kind: sample.CounterMetric}, {Name: "in_stock", Kind: sample.RateMetric},
			{Name: "basket_ms", Kind: sample.TrendMetric, Time: true}}}
	rec := metrics.NewRecorder(layout, 1)
	s := rec.Sink(0)
	end := time.Second / 2
	s.Request(&sample.Request{End: end, Duration: 10 * time.Millisecond, Status: 200})
	for range 2 {
		f := sample.Facts{MsgsReceived: 3, FirstMsg: 20 * time.Millisecond, Session: time.Second}
		s.Request(&sample.Request{Endpoint: 1, End: end, Duration: time.Second, Status: 200, Facts: &f})
	}
	w := sample.Facts{MsgsSent: 4, MsgsReceived: 4, FirstMsg: 3 * time.Millisecond, Reply: 5 * time.Millisecond, Session: 400 * time.Millisecond}
	s.Request(&sample.Request{Endpoint: 2, End: end, Duration: time.Second, Status: 101, Facts: &w})
	s.Request(&sample.Request{Endpoint: 2, End: end, Duration: time.Millisecond, Status: 403, Kind: sample.HTTP4xx, Err: "handshake refused", Facts: &sample.Facts{}})
	for i := range 10 {
		f := sample.Facts{MsgsSent: 1, MsgsReceived: 1, Session: 2 * time.Millisecond}
		r := sample.Request{Endpoint: 3, End: end, Duration: 2 * time.Millisecond, Facts: &f}
		switch {
		case i < 3:
			f.Code, r.Kind, r.Err = 14, sample.KindOfGRPC(14), "unavailable"
		case i < 4:
			f.Code, r.Kind, r.Err = 4, sample.KindOfGRPC(4), "deadline"
		}
		s.Request(&r)
	}
	for i, v := range []float64{2, 3} {
		s.Add(0, end, v)
		s.Add(1, end, float64(i))
	}
	s.Add(2, end, 40)
	run := metrics.NewRun(layout)
	run.Add(rec.Collect(0))
	run.SetElapsed(2 * time.Second)
	start := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	return &Input{Name: "sessions", Status: "completed", Start: start, End: start.Add(2 * time.Second), Run: run}
}

// TestSessionsInHTMLAndMarkdown: report.html and the Markdown summary show
// the session protocols' facts per endpoint, each session endpoint's
// statuses (a gRPC call's by its code's name) and the custom metrics.
func TestSessionsInHTMLAndMarkdown(t *testing.T) {
	in := sessionsFixture(t)
	var page bytes.Buffer
	if err := WriteHTML(&page, in); err != nil {
		t.Fatal(err)
	}
	htmlRows := tableRowsOf(t, page.String())
	mdRows := map[string][]string{}
	for _, line := range strings.Split(string(Markdown(in)), "\n") {
		if strings.HasPrefix(line, "| ") {
			cells := strings.Split(strings.ReplaceAll(strings.Trim(line, "| "), `\_`, "_"), " | ")
			if len(cells) >= 2 {
				mdRows[cells[0]+" "+cells[1]] = cells
			}
		}
	}
	cases := []struct {
		name, key string // the row's first two cells
		want      []string
	}{
		{"sse facts", "SSE /feed sse", []string{"2", "0", "6", "3/s", "20.0ms", "20.0ms", "1.00s", "1.00s", "-"}},
		{"ws facts", "WS /chat ws", []string{"2", "4", "4", "2/s", "3.00ms", "3.00ms"}},
		{"grpc facts", "gRPC Echo/Say grpc", []string{"10", "10", "10", "5/s"}},
		{"grpc ok", "gRPC Echo/Say OK", []string{"6", "60.00%"}},
		{"grpc unavailable", "gRPC Echo/Say UNAVAILABLE", []string{"3", "30.00%"}},
		{"grpc deadline", "gRPC Echo/Say DEADLINE_EXCEEDED", []string{"1", "10.00%"}},
		{"ws handshake refused", "WS /chat http_4xx", []string{"1", "50.00%"}},
		{"counter", "orders counter", []string{"2", "total 5 · 2.5/s"}},
		{"rate", "in_stock rate", []string{"2", "50.00% true (1 of 2)"}},
		{"trend", "basket_ms trend (time)", []string{"1"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for where, rows := range map[string]map[string][]string{"report.html": htmlRows, "summary.md": mdRows} {
				got, ok := rows[c.key]
				if !ok {
					t.Fatalf("%s: no row %q", where, c.key)
				}
				if len(got) < 2+len(c.want) || strings.Join(got[2:2+len(c.want)], "|") != strings.Join(c.want, "|") {
					t.Errorf("%s: row %q = %q, want %q after the first two cells", where, c.key, got, c.want)
				}
			}
		})
	}
	if _, ok := mdRows["GET /x OK"]; ok {
		t.Error("an HTTP endpoint has a status breakdown")
	}
}

// TestNoSessionsNoSections: an HTTP run's report.html and Markdown have no
// sessions, statuses or custom metrics sections.
func TestNoSessionsNoSections(t *testing.T) {
	in := fixture(t)
	var page bytes.Buffer
	if err := WriteHTML(&page, in); err != nil {
		t.Fatal(err)
	}
	md := string(Markdown(in))
	for _, s := range []string{`id="sessions"`, `id="statuses"`, `id="custom-metrics"`, "### Sessions", "### Statuses", "### Custom metrics"} {
		if strings.Contains(page.String(), s) || strings.Contains(md, s) {
			t.Errorf("an HTTP run shows %q", s)
		}
	}
}

var (
	trRE   = regexp.MustCompile(`(?s)<tr>(.*?)</tr>`)
	cellRE = regexp.MustCompile(`(?s)<td[^>]*>(.*?)</td>`)
)

// tableRowsOf returns the page's body rows by their first two cells' text.
func tableRowsOf(t *testing.T, page string) map[string][]string {
	t.Helper()
	rows := map[string][]string{}
	for _, tr := range trRE.FindAllStringSubmatch(page, -1) {
		var cells []string
		for _, td := range cellRE.FindAllStringSubmatch(tr[1], -1) {
			cells = append(cells, html.UnescapeString(td[1]))
		}
		if len(cells) >= 2 {
			rows[cells[0]+" "+cells[1]] = cells
		}
	}
	return rows
}
