package output

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/metrics/metricstest"
	"github.com/loadlens/loadlens/internal/plan"
)

// notSentSecs is the seconds the not-sent tests send: frames marks one
// iteration not sent in seconds 1 and 4, so 2 in all.
const notSentSecs, notSentWant = 6, 2

// TestEveryOutputCarriesIterationsNotSent sends the same seconds to each
// store, as a fake receiver of its own protocol decodes them, and reads
// back the iterations a request not sent ended: each store's figure adds
// up to the run's (2), under the name docs/outputs.md gives it.
func TestEveryOutputCarriesIterationsNotSent(t *testing.T) {
	fs, run := frames(2, notSentSecs)
	if got := runNotSent(run); got != notSentWant {
		t.Fatalf("the synthetic run has %d iterations not sent, want %d", got, notSentWant)
	}
	tests := []struct {
		name   string
		kind   string
		path   string
		header map[string]string
		read   func(t *testing.T, bodies [][]byte) float64
	}{
		{"influxdb: a point per second, summed", plan.OutInfluxDB, "/write?db=k6", nil, func(t *testing.T, bodies [][]byte) float64 {
			var sum float64
			for _, b := range bodies {
				for _, p := range decodeLines(t, b) {
					if p.measurement == "iterations_not_sent" {
						sum += p.fields["value"].FloatV()
					}
				}
			}
			return sum
		}},
		{"prometheus remote write: the counter's last value", plan.OutPrometheusRW, "/api/v1/write", map[string]string{"Content-Encoding": "snappy"},
			func(t *testing.T, bodies [][]byte) float64 {
				last := -1.0
				for _, b := range bodies {
					for _, ts := range decodeRW(t, b).Timeseries {
						if labelsOf(ts)["__name__"] == promNotSent && len(ts.Samples) > 0 {
							last = ts.Samples[len(ts.Samples)-1].Value
						}
					}
				}
				return last
			}},
		{"otlp: the cumulative sum's last point", plan.OutOTLP, "/v1/metrics", nil, func(t *testing.T, bodies [][]byte) float64 {
			last := -1.0
			for _, b := range bodies {
				for _, m := range decodeOTLP(t, b).ResourceMetrics[0].ScopeMetrics[0].Metrics {
					if m.Name == "loadlens_iterations_not_sent" && m.GetSum().GetIsMonotonic() {
						pts := m.GetSum().GetDataPoints()
						last = float64(pts[len(pts)-1].GetAsInt())
					}
				}
			}
			return last
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var rc receiver
			srv := rc.serve(t, tt.header)
			sink, err := newSink(plan.Output{Kind: tt.kind, URL: srv.URL + tt.path}, "run-1", func(string) string { return "" }, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer sink.Close()
			for _, batch := range [][]*Frame{fs[:2], fs[2:]} { // a total that crosses a batch
				if err := sink.Write(context.Background(), batch); err != nil {
					t.Fatal(err)
				}
			}
			if got := tt.read(t, rc.check(t)); got != notSentWant {
				t.Errorf("iterations not sent read back as %v, want %d", got, notSentWant)
			}
		})
	}
	if !slices.Contains(PromSeriesNames(), promNotSent) {
		t.Errorf("PromSeriesNames lacks %s", promNotSent)
	}
}

// TestExportCarriesIterationsNotSent: `loadlens export`'s scenario rows
// carry the second's iterations not sent, in JSON lines and in CSV's last
// column, and they add up to the run's.
func TestExportCarriesIterationsNotSent(t *testing.T) {
	layout := metricstest.Layout(2)
	each := func(yield func(*metrics.Snapshot) error) error {
		var err error
		metricstest.Seconds(layout, notSentSecs, func(s *metrics.Snapshot) {
			if s.Second%3 == 1 {
				s.Scenarios[0].Iterations, s.Scenarios[0].NotSent = 1, 1
			}
			if err == nil {
				err = yield(s)
			}
		})
		return err
	}
	end := testStart.Add(notSentSecs * time.Second)
	t.Run("jsonl", func(t *testing.T) {
		var b bytes.Buffer
		if err := Export(&b, "jsonl", layout, testStart, end, each); err != nil {
			t.Fatal(err)
		}
		var sum int64
		for _, line := range bytes.Split(bytes.TrimSpace(b.Bytes()), []byte("\n")) {
			var row map[string]any
			if err := json.Unmarshal(line, &row); err != nil {
				t.Fatal(err)
			}
			if row["type"] == "scenario" {
				n, ok := row["iterations_not_sent"].(float64)
				if !ok {
					t.Fatalf("a scenario row without iterations_not_sent: %s", line)
				}
				sum += int64(n)
			}
		}
		if sum != notSentWant {
			t.Errorf("iterations_not_sent adds up to %d, want %d", sum, notSentWant)
		}
	})
	t.Run("csv", func(t *testing.T) {
		var b bytes.Buffer
		if err := Export(&b, "csv", layout, testStart, end, each); err != nil {
			t.Fatal(err)
		}
		rows, err := csv.NewReader(&b).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		col := len(rows[0]) - 1
		if rows[0][col] != "iterations_not_sent" {
			t.Fatalf("the last column is %q, want iterations_not_sent (added last, so earlier columns keep their place)", rows[0][col])
		}
		var sum int64
		for _, r := range rows[1:] {
			if r[0] == "scenario" {
				n, err := strconv.ParseInt(r[col], 10, 64)
				if err != nil {
					t.Fatalf("row %v: %v", r, err)
				}
				sum += n
			} else if r[col] != "" {
				t.Errorf("an endpoint row fills the scenario column iterations_not_sent: %v", r)
			}
		}
		if sum != notSentWant {
			t.Errorf("iterations_not_sent adds up to %d, want %d", sum, notSentWant)
		}
	})
}

// runNotSent is the run's iterations not sent, every scenario's.
func runNotSent(r *metrics.Run) int64 {
	var n int64
	for _, s := range r.Scenarios {
		n += s.NotSent
	}
	return n
}
