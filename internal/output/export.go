package output

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/sample"
)

// ExportFormats returns the formats Export writes.
func ExportFormats() []string { return []string{"jsonl", "csv"} }

// endpointRow is one endpoint's second in an export.
type endpointRow struct {
	Type     string           `json:"type"` // "endpoint"
	Second   int              `json:"second"`
	Time     string           `json:"time"`
	Scenario string           `json:"scenario"`
	Endpoint string           `json:"endpoint"`
	Method   string           `json:"method"`
	Requests int64            `json:"requests"`
	Failed   int64            `json:"failed"`
	Failures map[string]int64 `json:"failures_by_kind"`
	Sent     int64            `json:"data_sent"`
	Received int64            `json:"data_received"`
	Duration *trendMS         `json:"duration_ms,omitempty"` // absent in a second without requests
}

// trendMS is a Trend in milliseconds, k6's unit for durations.
type trendMS struct {
	Min float64 `json:"min"`
	Med float64 `json:"med"`
	Avg float64 `json:"avg"`
	P90 float64 `json:"p90"`
	P95 float64 `json:"p95"`
	P99 float64 `json:"p99"`
	Max float64 `json:"max"`
}

// scenarioRow is one scenario's second in an export.
type scenarioRow struct {
	Type       string `json:"type"` // "scenario"
	Second     int    `json:"second"`
	Time       string `json:"time"`
	Scenario   string `json:"scenario"`
	Iterations int64  `json:"iterations"`
	Dropped    int64  `json:"dropped_iterations"`
	VUs        int64  `json:"vus"`
	VUsMax     int64  `json:"vus_max"`
	NotSent    int64  `json:"iterations_not_sent"` // in Iterations too; the threshold metric's name
}

// Export writes a finished run's seconds, as each calls them back in
// order, in format (jsonl or csv): for every second a row per endpoint and
// a row per scenario, told apart by their type. end is when the run ended,
// the last second's time.
func Export(w io.Writer, format string, layout sample.Layout, start, end time.Time, each func(func(*metrics.Snapshot) error) error) error {
	b := newBuilder(layout, start)
	b.now = func() time.Time { return end }
	var write func(f *Frame) error
	switch format {
	case "jsonl":
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		write = func(f *Frame) error { return exportJSONL(enc, f) }
	case "csv":
		cw := csv.NewWriter(w)
		if err := cw.Write(csvHeader()); err != nil {
			return err
		}
		write = func(f *Frame) error {
			for _, r := range csvRows(f) {
				if err := cw.Write(r); err != nil {
					return err
				}
			}
			cw.Flush()
			return cw.Error()
		}
	default:
		return fmt.Errorf("unknown export format %q: want jsonl or csv", format)
	}
	return each(func(s *metrics.Snapshot) error { return write(b.frame(s)) })
}

func rowsOf(f *Frame) ([]endpointRow, []scenarioRow) {
	at := f.Time.UTC().Format(time.RFC3339Nano)
	var eps []endpointRow
	for i := range f.Endpoints {
		e := &f.Endpoints[i]
		r := endpointRow{Type: "endpoint", Second: f.Second, Time: at, Scenario: e.Scenario, Endpoint: e.Endpoint, Method: e.Method,
			Requests: e.Requests, Failed: e.Requests - e.ByStatus[StatusOK], Failures: map[string]int64{}, Sent: e.Sent, Received: e.Received}
		for k, n := range e.Failures {
			if n > 0 {
				r.Failures[kindName(k)] = n
			}
		}
		if t := e.Duration; t.Count > 0 {
			r.Duration = &trendMS{Min: ms(t.Min), Med: ms(t.Med), Avg: ms(t.Avg), P90: ms(t.P90), P95: ms(t.P95), P99: ms(t.P99), Max: ms(t.Max)}
		}
		eps = append(eps, r)
	}
	var scs []scenarioRow
	for _, s := range f.Scenarios {
		scs = append(scs, scenarioRow{Type: "scenario", Second: f.Second, Time: at, Scenario: s.Scenario,
			Iterations: s.Iterations, Dropped: s.Dropped, VUs: s.VUs, VUsMax: s.VUsMax, NotSent: s.NotSent})
	}
	return eps, scs
}

func exportJSONL(enc *json.Encoder, f *Frame) error {
	eps, scs := rowsOf(f)
	for _, r := range eps {
		if err := enc.Encode(r); err != nil {
			return err
		}
	}
	for _, r := range scs {
		if err := enc.Encode(r); err != nil {
			return err
		}
	}
	return nil
}

// csvHeader is the CSV's columns: an endpoint row leaves the scenario
// columns empty and the other way round, so that summing a column never
// counts a figure twice. A column added later goes last, so that a reader
// that takes columns by position reads the earlier ones as it did.
func csvHeader() []string {
	h := []string{"type", "second", "time", "scenario", "endpoint", "method", "requests", "failed"}
	for k := sample.Kind(1); k < sample.NumKinds; k++ {
		h = append(h, "failed_"+k.String())
	}
	return append(h, "data_sent", "data_received", "duration_min_ms", "duration_med_ms", "duration_avg_ms", "duration_p90_ms",
		"duration_p95_ms", "duration_p99_ms", "duration_max_ms", "iterations", "dropped_iterations", "vus", "vus_max", "iterations_not_sent")
}

func csvRows(f *Frame) [][]string {
	eps, scs := rowsOf(f)
	n := len(csvHeader())
	var out [][]string
	i64 := func(v int64) string { return strconv.FormatInt(v, 10) }
	f64 := func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
	for _, r := range eps {
		row := []string{r.Type, strconv.Itoa(r.Second), r.Time, r.Scenario, r.Endpoint, r.Method, i64(r.Requests), i64(r.Failed)}
		for k := sample.Kind(1); k < sample.NumKinds; k++ {
			row = append(row, i64(r.Failures[k.String()]))
		}
		row = append(row, i64(r.Sent), i64(r.Received))
		if d := r.Duration; d != nil {
			row = append(row, f64(d.Min), f64(d.Med), f64(d.Avg), f64(d.P90), f64(d.P95), f64(d.P99), f64(d.Max))
		} else {
			row = append(row, "", "", "", "", "", "", "")
		}
		out = append(out, append(row, make([]string, n-len(row))...))
	}
	for _, r := range scs {
		row := make([]string, n-5, n)
		row[0], row[1], row[2], row[3] = r.Type, strconv.Itoa(r.Second), r.Time, r.Scenario
		out = append(out, append(row, i64(r.Iterations), i64(r.Dropped), i64(r.VUs), i64(r.VUsMax), i64(r.NotSent)))
	}
	return out
}
