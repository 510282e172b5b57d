package store

import (
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/loadlens/loadlens/internal/series"
)

// point returns a series holding one point, as scraping hands them over.
func point(name string, kind series.Kind, sec int, v float64, labels ...string) *series.Series {
	s := &series.Series{Name: name, Kind: kind, Points: []series.Point{{Sec: sec, Value: v}}}
	for i := 0; i+1 < len(labels); i += 2 {
		s.Labels = append(s.Labels, series.Label{Name: labels[i], Value: labels[i+1]})
	}
	series.SortLabels(s.Labels)
	return s
}

func TestSeriesRoundTrip(t *testing.T) {
	pending := func(sec int, v float64) *series.Series {
		return point("hikaricp_connections_pending", series.Gauge, sec, v, "target", "app", "role", "app", "pool", "HikariPool-1")
	}
	commits := func(sec int, v float64) *series.Series {
		return point("pg_stat_database_xact_commit", series.Rate, sec, v, "target", "pg", "datname", `we"ird`)
	}
	cases := []struct {
		name      string
		batches   [][]*series.Series
		dropTable bool // a run.db written before the tables existed
		want      series.Set
	}{
		{"none written", nil, false, nil},
		{"two seconds, a series appearing in the second", [][]*series.Series{
			{pending(0, 3)},
			{pending(1, 71), commits(1, 120.5)},
		}, false, series.Set{
			{Name: "hikaricp_connections_pending", Kind: series.Gauge,
				Labels: []series.Label{{Name: "pool", Value: "HikariPool-1"}, {Name: "role", Value: "app"}, {Name: "target", Value: "app"}},
				Points: []series.Point{{Sec: 0, Value: 3}, {Sec: 1, Value: 71}}},
			{Name: "pg_stat_database_xact_commit", Kind: series.Rate,
				Labels: []series.Label{{Name: "datname", Value: `we"ird`}, {Name: "target", Value: "pg"}},
				Points: []series.Point{{Sec: 1, Value: 120.5}}},
		}},
		{"a second written twice keeps the last value, out of order seconds come sorted", [][]*series.Series{
			{pending(2, 1)},
			{pending(0, 5), pending(2, 9)},
		}, false, series.Set{
			{Name: "hikaricp_connections_pending", Kind: series.Gauge,
				Labels: []series.Label{{Name: "pool", Value: "HikariPool-1"}, {Name: "role", Value: "app"}, {Name: "target", Value: "app"}},
				Points: []series.Point{{Sec: 0, Value: 5}, {Sec: 2, Value: 9}}},
		}},
		{"older run.db without the tables", nil, true, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w, path := create(t, 2)
			for _, b := range c.batches {
				if err := w.WriteSeries(b...); err != nil {
					t.Fatal(err)
				}
			}
			if c.dropTable {
				for _, q := range []string{`DROP VIEW series_values`, `DROP TABLE series_points`, `DROP TABLE series`, `DROP TABLE scrape_errors`} {
					if _, err := w.db.Exec(q); err != nil {
						t.Fatal(err)
					}
				}
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			r := open(t, path)
			got, err := r.Series()
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("Series() =\n%s\nwant\n%s", dump(got), dump(c.want))
			}
			errs, err := r.ScrapeErrors()
			if err != nil || errs != nil {
				t.Errorf("ScrapeErrors() = %v, %v; want none", errs, err)
			}
		})
	}
}

func TestWriteSeriesRefusesBadPoints(t *testing.T) {
	cases := []struct {
		name string
		bad  *series.Series
		want string
	}{
		{"NaN", point("m", series.Gauge, 1, math.NaN(), "target", "a"), `series m{target="a"} at second 1: NaN cannot be stored`},
		{"no name", point("", series.Gauge, 1, 1, "target", "a"), `series {target="a"} has no name`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w, path := create(t, 1)
			good := point("ok", series.Gauge, 1, 2)
			err := w.WriteSeries(good, c.bad)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("WriteSeries error %v, want one containing %q", err, c.want)
			}
			if err := w.WriteSeries(point("ok", series.Gauge, 2, 3)); err != nil {
				t.Fatalf("a good write after the refused one: %v", err)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			got, err := open(t, path).Series()
			if err != nil {
				t.Fatal(err)
			}
			want := series.Set{{Name: "ok", Kind: series.Gauge, Points: []series.Point{{Sec: 2, Value: 3}}}}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("stored %s, want only the later good point: %s", dump(got), dump(want))
			}
		})
	}
}

func TestScrapeErrors(t *testing.T) {
	node := ScrapeError{Target: "node", URL: "http://127.0.0.1:9100/metrics", Kind: "refused",
		First: "connection refused", FirstSec: 3, LastSec: 3, Failures: 1, RecoveredSec: -1}
	recovered := node
	recovered.LastSec, recovered.Failures, recovered.RecoveredSec = 7, 5, 8
	app := ScrapeError{Target: "app", URL: "http://127.0.0.1:8080/actuator/prometheus", Kind: "http_status",
		First: "HTTP 500 Internal Server Error", FirstSec: 0, LastSec: 9, Failures: 10, RecoveredSec: -1}
	cases := []struct {
		name   string
		writes []ScrapeError
		want   []ScrapeError
	}{
		{"one target", []ScrapeError{node}, []ScrapeError{node}},
		{"rewritten on recovery", []ScrapeError{node, recovered}, []ScrapeError{recovered}},
		{"sorted by target", []ScrapeError{node, app}, []ScrapeError{app, node}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w, path := create(t, 1)
			for _, e := range c.writes {
				if err := w.WriteScrapeError(e); err != nil {
					t.Fatal(err)
				}
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			got, err := open(t, path).ScrapeErrors()
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("ScrapeErrors() = %+v, want %+v", got, c.want)
			}
		})
	}
}

// dump prints a set one series per line, for failure messages.
func dump(set series.Set) string {
	var b strings.Builder
	for _, s := range set {
		b.WriteString(s.Key() + " " + s.Kind.String())
		for _, p := range s.Points {
			fmt.Fprintf(&b, " %d=%g", p.Sec, p.Value)
		}
		b.WriteByte('\n')
	}
	return b.String()
}
