package output

import (
	"context"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/influxdata/line-protocol/v2/lineprotocol"

	"github.com/loadlens/loadlens/internal/plan"
)

// point is one decoded line-protocol point.
type point struct {
	measurement string
	tags        map[string]string
	fields      map[string]lineprotocol.Value
	time        time.Time
}

// series is the point's measurement and tags: with the time, what InfluxDB
// keeps one point for.
func (p point) series() string {
	var tags []string
	for k, v := range p.tags {
		tags = append(tags, k+"="+v)
	}
	sort.Strings(tags)
	return p.measurement + "," + strings.Join(tags, ",")
}

// decodeLines reads a body with InfluxData's strict decoder: any error fails.
func decodeLines(t *testing.T, body []byte) []point {
	t.Helper()
	dec := lineprotocol.NewDecoderWithBytes(body)
	var out []point
	for dec.Next() {
		m, err := dec.Measurement()
		if err != nil {
			t.Fatalf("measurement: %v", err)
		}
		p := point{measurement: string(m), tags: map[string]string{}, fields: map[string]lineprotocol.Value{}}
		for {
			k, v, err := dec.NextTag()
			if err != nil {
				t.Fatalf("tag: %v", err)
			}
			if k == nil {
				break
			}
			p.tags[string(k)] = string(v)
		}
		for {
			k, v, err := dec.NextField()
			if err != nil {
				t.Fatalf("field: %v", err)
			}
			if k == nil {
				break
			}
			p.fields[string(k)] = v
		}
		if p.time, err = dec.Time(lineprotocol.Nanosecond, time.Time{}); err != nil || p.time.IsZero() {
			t.Fatalf("time: %v (every point carries its second)", err)
		}
		out = append(out, p)
	}
	if err := dec.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestInfluxPointsAreUniqueAndAddUp sends 6 seconds to an in-process v1 and
// v2 endpoint and reads them with the strict decoder: no two points share a
// series and a timestamp (InfluxDB would keep only one), and the counts add
// up to the run's.
func TestInfluxPointsAreUniqueAndAddUp(t *testing.T) {
	tests := []struct {
		kind, path string
		header     map[string]string
	}{
		{plan.OutInfluxDB, "/write?db=k6", map[string]string{"Content-Type": "text/plain; charset=utf-8"}},
		{plan.OutInfluxDB2, "/api/v2/write?org=o&bucket=b", map[string]string{"Authorization": "Token s3cret"}},
	}
	for _, tt := range tests {
		t.Run(tt.kind, func(t *testing.T) {
			var rc receiver
			srv := rc.serve(t, tt.header)
			env := func(k string) string {
				if k == InfluxTokenEnv {
					return "s3cret"
				}
				return ""
			}
			sink, err := newSink(plan.Output{Kind: tt.kind, URL: srv.URL + tt.path}, "run-1", env, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer sink.Close()
			fs, run := frames(3, 6)
			for _, batch := range [][]*Frame{fs[:1], fs[1:]} {
				if err := sink.Write(context.Background(), batch); err != nil {
					t.Fatal(err)
				}
			}
			seen := map[string]bool{}
			sums := map[string]float64{}
			for _, b := range rc.check(t) {
				for _, p := range decodeLines(t, b) {
					key := p.series() + " " + p.time.String()
					if seen[key] {
						t.Errorf("two points of %s", key)
					}
					seen[key] = true
					if p.tags["testid"] != "run-1" {
						t.Errorf("%s: testid %q", p.measurement, p.tags["testid"])
					}
					sums[p.measurement] += p.fields["value"].FloatV()
					if p.measurement == "http_req_duration" {
						sums["duration_count"] += float64(p.fields["count"].IntV())
					}
					if p.measurement == "checks" {
						sums["check_outcomes"] += float64(p.fields["passes"].IntV() + p.fields["fails"].IntV())
					}
				}
			}
			tot := run.Total()
			if sums["http_reqs"] != float64(tot.Requests) || sums["duration_count"] != float64(tot.Requests) {
				t.Errorf("http_reqs add to %v and durations count %v, want %d", sums["http_reqs"], sums["duration_count"], tot.Requests)
			}
			if sums["data_sent"] != float64(tot.Sent) || sums["iterations"] != 60 || sums["dropped_iterations"] != 3 {
				t.Errorf("data_sent %v (want %d), iterations %v (want 60), dropped %v (want 3)", sums["data_sent"], tot.Sent, sums["iterations"], sums["dropped_iterations"])
			}
			var outcomes int64
			for _, c := range run.Checks {
				outcomes += c.Passes + c.Fails
			}
			if sums["check_outcomes"] != float64(outcomes) || outcomes == 0 || sums["http_req_waiting"] == 0 {
				t.Errorf("checks add to %v outcomes, want %d; waiting points %v", sums["check_outcomes"], outcomes, sums["http_req_waiting"])
			}
			if len(seen) < 6*3*4 {
				t.Errorf("only %d points", len(seen))
			}
		})
	}
}

// TestInflux2NeedsItsToken: without the token the output is refused before the run.
func TestInflux2NeedsItsToken(t *testing.T) {
	_, err := New(Config{Outputs: []plan.Output{{Kind: plan.OutInfluxDB2, URL: "http://127.0.0.1:1/api/v2/write?org=o&bucket=b"}},
		Getenv: func(string) string { return "" }})
	if err == nil || !strings.Contains(err.Error(), InfluxTokenEnv) {
		t.Fatalf("error %v, want it to name $%s", err, InfluxTokenEnv)
	}
}
