package report

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/loadlens/loadlens/internal/diagnose"
	"github.com/loadlens/loadlens/internal/series"
	"github.com/loadlens/loadlens/internal/units"
)

// observed returns a series of target app (role app) or of the generator.
func observed(name string, kind series.Kind, role string, extra []series.Label, values ...float64) *series.Series {
	target := "app"
	if role == RoleGenerator {
		target = "loadlens"
	}
	labels := append([]series.Label{{Name: "role", Value: role}, {Name: "target", Value: target}}, extra...)
	series.SortLabels(labels)
	s := &series.Series{Name: name, Labels: labels, Kind: kind}
	for i, v := range values {
		s.Points = append(s.Points, series.Point{Sec: i, Value: v})
	}
	return s
}

// observedFixture is the server's and the generator's series of fixture's
// three seconds: a database/sql pool that runs out, CPU, one series no
// chart family knows, and the generator's own.
func observedFixture() series.Set {
	db := []series.Label{{Name: "db_name", Value: "shop"}}
	return series.Set{
		observed("loadlens_cpu_cores", series.Gauge, RoleGenerator, nil, 0.5, 1.25, 2),
		observed("loadlens_cpu_capacity", series.Gauge, RoleGenerator, nil, 8, 8, 8),
		observed("go_sql_max_open_connections", series.Gauge, "app", db, 10, 10, 10),
		observed("go_sql_in_use_connections", series.Gauge, "app", db, 4, 10, 10),
		observed("go_sql_wait_count_total", series.Rate, "app", db, 0, 12, 71),
		observed("process_cpu_seconds_total", series.Rate, "app", nil, 0.5, 0.9, math.NaN()),
		observed("my_queue_depth", series.Gauge, "app", []series.Label{{Name: "queue", Value: "mail"}}, 3, 7, 12),
		observed("up", series.Gauge, "app", nil, 1, 1, 0),
	}
}

func TestDescribeSeries(t *testing.T) {
	db := []series.Label{{Name: "db_name", Value: "shop"}}
	cases := []struct {
		name string
		s    *series.Series
		want SeriesMeta
	}{
		{"pool member", observed("go_sql_in_use_connections", series.Gauge, "app", db),
			SeriesMeta{Key: `go_sql_in_use_connections{db_name="shop",role="app",target="app"}`, Name: "go_sql_in_use_connections",
				Group: "app", Role: "app", Chart: "pool", Title: "DB connection pool", Rank: 10, Order: 4, Unit: "count",
				Base: "in use", Parts: []string{"shop"}}},
		{"pool limit", observed("hikaricp_connections_max", series.Gauge, "app", nil),
			SeriesMeta{Key: `hikaricp_connections_max{role="app",target="app"}`, Name: "hikaricp_connections_max",
				Group: "app", Role: "app", Chart: "pool", Title: "DB connection pool", Rank: 10, Order: 3, Unit: "count",
				Base: "max", Limit: true}},
		{"a pgx pool's limit", observed("pgxpool_max_conns", series.Gauge, "app", nil),
			SeriesMeta{Key: `pgxpool_max_conns{role="app",target="app"}`, Name: "pgxpool_max_conns",
				Group: "app", Role: "app", Chart: "pool", Title: "DB connection pool", Rank: 10, Order: 11, Unit: "count",
				Base: "max", Limit: true}},
		{"an OpenTelemetry pool's use, by state", observed("db_client_connections_usage", series.Gauge, "app",
			[]series.Label{{Name: "state", Value: "used"}}),
			SeriesMeta{Key: `db_client_connections_usage{role="app",state="used",target="app"}`, Name: "db_client_connections_usage",
				Group: "app", Role: "app", Chart: "pool", Title: "DB connection pool", Rank: 10, Order: 12, Unit: "count",
				Parts: []string{"used"}}},
		{"node CPU by mode", observed("node_cpu_seconds_total", series.Rate, "db", []series.Label{{Name: "mode", Value: "user"}}),
			SeriesMeta{Key: `node_cpu_seconds_total{mode="user",role="db",target="app"}`, Name: "node_cpu_seconds_total",
				Group: "app", Role: "db", Chart: "cpu-cores", Title: "CPU, cores busy", Rank: 21, Order: 1, Unit: "cores",
				Parts: []string{"user"}}},
		{"generator capacity", observed("loadlens_cpu_capacity", series.Gauge, RoleGenerator, nil),
			SeriesMeta{Key: `loadlens_cpu_capacity{role="generator",target="loadlens"}`, Name: "loadlens_cpu_capacity",
				Group: "loadlens", Role: "generator", Generator: true, Chart: "gen-cpu", Title: "CPU, cores busy", Rank: 1, Order: 1,
				Unit: "cores", Base: "capacity", Limit: true}},
		{"HPA max replicas, a limit", observed("kube_horizontalpodautoscaler_spec_max_replicas", series.Gauge, "app",
			[]series.Label{{Name: "horizontalpodautoscaler", Value: "product-api"}, {Name: "namespace", Value: "shop"}}),
			SeriesMeta{Key: `kube_horizontalpodautoscaler_spec_max_replicas{horizontalpodautoscaler="product-api",namespace="shop",role="app",target="app"}`,
				Name: "kube_horizontalpodautoscaler_spec_max_replicas", Group: "app", Role: "app", Chart: "kube-replicas", Title: "Replicas",
				Rank: 80, Order: 6, Unit: "count", Base: "HPA max", Parts: []string{"product-api", "shop"}, Limit: true}},
		{"a pod's container CPU", observed("container_cpu_usage_seconds_total", series.Rate, "app",
			[]series.Label{{Name: "container", Value: "app"}, {Name: "namespace", Value: "shop"}, {Name: "pod", Value: "product-api-7d9f8c6b5-4xk2p"}}),
			SeriesMeta{Key: `container_cpu_usage_seconds_total{container="app",namespace="shop",pod="product-api-7d9f8c6b5-4xk2p",role="app",target="app"}`,
				Name: "container_cpu_usage_seconds_total", Group: "app", Role: "app", Chart: "container-cpu", Title: "Container CPU, cores busy",
				Rank: 83, Unit: "cores", Parts: []string{"app", "shop", "product-api-7d9f8c6b5-4xk2p"}}},
		{"unknown gauge of bytes", observed("cache_size_bytes", series.Gauge, "cache", []series.Label{{Name: "shard", Value: "2"}}),
			SeriesMeta{Key: `cache_size_bytes{role="cache",shard="2",target="app"}`, Name: "cache_size_bytes",
				Group: "app", Role: "cache", Chart: "m:cache_size_bytes", Title: "cache_size_bytes", Rank: 100, Unit: "bytes",
				Parts: []string{"shard=2"}}},
		{"unknown counter", observed("orders_total", series.Rate, "app", nil),
			SeriesMeta{Key: `orders_total{role="app",target="app"}`, Name: "orders_total",
				Group: "app", Role: "app", Chart: "m:orders_total", Title: "orders_total per second", Rank: 100, Unit: "count"}},
		{"unknown duration", observed("job_last_run_seconds", series.Gauge, "app", nil),
			SeriesMeta{Key: `job_last_run_seconds{role="app",target="app"}`, Name: "job_last_run_seconds",
				Group: "app", Role: "app", Chart: "m:job_last_run_seconds", Title: "job_last_run_seconds", Rank: 100, Unit: "seconds"}},
		{"up", observed("up", series.Gauge, "app", nil),
			SeriesMeta{Key: `up{role="app",target="app"}`, Name: "up", Group: "app", Role: "app", Chart: "m:up", Title: "up",
				Rank: 100, Unit: "count", Up: true}},
		{"no labels", &series.Series{Name: "x"},
			SeriesMeta{Key: "x", Name: "x", Group: "unlabelled", Chart: "m:x", Title: "x", Rank: 100, Unit: "count"}},
	}
	sd := NewSeriesDescriber(units.Requests)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, _ := json.Marshal(sd.Describe(0, c.s))
			want, _ := json.Marshal(c.want)
			if string(got) != string(want) {
				t.Errorf("Describe:\n got %s\nwant %s", got, want)
			}
		})
	}
}

func TestDownsample(t *testing.T) {
	ramp := func(n int) []series.Point {
		pts := make([]series.Point, n)
		for i := range pts {
			pts[i] = series.Point{Sec: i, Value: float64(i % 10)}
		}
		return pts
	}
	spiky := ramp(1000)
	spiky[501].Value = 1e6
	spiky[733].Value = -5
	cases := []struct {
		name     string
		pts      []series.Point
		limit    int
		wantLen  int
		wantKept []series.Point // must survive
	}{
		{"under the limit: unchanged", ramp(50), 100, 50, nil},
		{"at the limit: unchanged", ramp(100), 100, 100, nil},
		{"over: the spike and the dip survive", spiky, 100, 100, []series.Point{{Sec: 501, Value: 1e6}, {Sec: 733, Value: -5}}},
		{"constant: one point per span", []series.Point{{Sec: 0, Value: 1}, {Sec: 1, Value: 1}, {Sec: 2, Value: 1}, {Sec: 3, Value: 1}, {Sec: 4, Value: 1}, {Sec: 5, Value: 1}}, 4, 2, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Downsample(c.pts, c.limit)
			if len(got) != c.wantLen {
				t.Errorf("%d points, want %d", len(got), c.wantLen)
			}
			for i := 1; i < len(got); i++ {
				if got[i].Sec <= got[i-1].Sec {
					t.Fatalf("points out of order at %d: %v then %v", i, got[i-1], got[i])
				}
			}
			for _, k := range c.wantKept {
				found := false
				for _, p := range got {
					found = found || p == k
				}
				if !found {
					t.Errorf("point %v was dropped", k)
				}
			}
		})
	}
}

func TestObservedForPage(t *testing.T) {
	d := ObservedForPage(observedFixture(), units.Requests)
	var order []string
	for _, m := range d.New {
		order = append(order, m.Name)
	}
	want := "go_sql_in_use_connections go_sql_max_open_connections go_sql_wait_count_total my_queue_depth process_cpu_seconds_total up " +
		"loadlens_cpu_capacity loadlens_cpu_cores"
	if got := strings.Join(order, " "); got != want {
		t.Errorf("series order:\n got %s\nwant %s (targets by name, the generator last)", got, want)
	}
	for i, p := range d.Points {
		if p.ID != d.New[i].ID || p.ID != i {
			t.Errorf("points %d belong to series %d, meta says %d", i, p.ID, d.New[i].ID)
		}
	}
	if cpu := d.Points[4]; len(cpu.Secs) != 2 || len(cpu.Values) != 2 {
		t.Errorf("process CPU has %v %v; want the NaN of second 2 left out", cpu.Secs, cpu.Values)
	}
	many := series.Set{}
	for i := range 200 {
		s := observed(fmt.Sprintf("m%03d", i), series.Gauge, "app", nil)
		for sec := range 3600 {
			s.Points = append(s.Points, series.Point{Sec: sec, Value: float64(sec % 7)})
		}
		many = append(many, s)
	}
	total := 0
	for _, p := range ObservedForPage(many, units.Requests).Points {
		total += len(p.Secs)
	}
	if total > maxPagePoints {
		t.Errorf("200 series of an hour embed %d points, over the page's %d", total, maxPagePoints)
	}
}

func TestNewDiagnosis(t *testing.T) {
	fs := []diagnose.Finding{
		{Kind: diagnose.KindPoolExhaustion, Severity: diagnose.Critical, From: 12, To: 71, Parts: diagnose.Words("DB pool exhausted"),
			Evidence: []diagnose.Evidence{{Source: `go_sql_in_use_connections{role="app"}`, Sec: 65, Value: 10.000000001, Figure: -1, Parts: diagnose.Words("10 of 10 in use")}},
			Remedies: []string{"hold connections for less time"}},
		{Kind: diagnose.KindLatencyDrift, Severity: diagnose.Info, From: 3, To: 3, Parts: diagnose.Words("latency drifts")},
	}
	cases := []struct {
		name    string
		fs      []diagnose.Finding
		healthy *diagnose.Verdict
		want    string
	}{
		{"findings", fs, nil, `{"findings":[{"n":1,"kind":"pool-exhaustion","severity":"critical","title":"DB pool exhausted","from":12,"to":71,` +
			`"when":"0:12–1:11 (60 seconds)","evidence":[{"at":"1:05","text":"10 of 10 in use","source":"go_sql_in_use_connections{role=\"app\"} = 10"}],` +
			`"remedies":["hold connections for less time"]},{"n":2,"kind":"latency-drift","severity":"info","title":"latency drifts","from":3,"to":3,` +
			`"when":"0:03","evidence":[],"remedies":[]}]}`},
		{"healthy", nil, &diagnose.Verdict{Parts: diagnose.Words("no bottleneck found: throughput followed the offered load")}, `{"findings":[],"healthy":"No bottleneck found: throughput followed the offered load"}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := json.Marshal(NewDiagnosis(c.fs, c.healthy))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != c.want {
				t.Errorf("diagnosis:\n got %s\nwant %s", got, c.want)
			}
		})
	}
}

// section returns the report's markup from the heading named from up to
// the next h2.
func section(t *testing.T, page, from string) string {
	t.Helper()
	m := regexp.MustCompile(`(?s)<h2>` + regexp.QuoteMeta(from) + `</h2>.*?(?:<h2>|$)`).FindString(page)
	if m == "" {
		t.Fatalf("report.html has no %q section", from)
	}
	return strings.TrimSuffix(m, "<h2>")
}

// TestHTMLServerView checks report.html's findings and server sections
// and the series data behind its charts against golden files.
func TestHTMLServerView(t *testing.T) {
	in := fixture(t)
	in.Series = observedFixture()
	in.Notices = append(in.Notices, "scraping db (http://127.0.0.1:9187/metrics) fails from 2s: refused: connection refused; the run goes on without it")
	page := renderHTML(t, in)
	golden(t, "report-findings.html", []byte(section(t, page, "Findings")))
	golden(t, "report-server.html", []byte(section(t, page, "Server")+section(t, page, "Load generator")))
	d := pageData(t, page)
	js, err := json.MarshalIndent(struct {
		Observed  ObservedDelta `json:"observed"`
		Diagnosis Diagnosis     `json:"diagnosis"`
	}{d.Observed, d.Diagnosis}, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "report-observed.json", append(js, '\n'))
	if top := page[:strings.Index(page, "<h2>")]; strings.Contains(top, "scraping db") || !strings.Contains(top, "users.csv ran out") {
		t.Errorf("the top of the report should keep the other notices and leave the scrape failure to the server's section")
	}
}

func TestHTMLWithoutServerSeries(t *testing.T) {
	cases := []struct {
		name      string
		set       series.Set
		healthy   *diagnose.Verdict
		findings  bool
		want, not []string
	}{
		{"nothing observed, healthy", nil, &diagnose.Verdict{Parts: diagnose.Words("no bottleneck found: all good")}, false,
			[]string{`id="server-none"`, "were not recorded", `<p class="healthy" id="healthy">`, "No bottleneck found: all good"},
			[]string{`id="server"`, `id="generator"`, `class="finding `}},
		{"generator only, with findings", series.Set{observed("loadlens_goroutines", series.Gauge, RoleGenerator, nil, 5)}, nil, true,
			[]string{`id="server-none"`, `id="generator"`, `<article class="finding critical" id="finding-1">`},
			[]string{`id="server"`, `id="healthy"`}},
		{"not diagnosed", nil, nil, false, []string{"This run was not diagnosed."}, []string{`id="healthy"`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := fixture(t)
			in.Series, in.Healthy = c.set, c.healthy
			if !c.findings {
				in.Findings = nil
			}
			page := renderHTML(t, in)
			for _, w := range c.want {
				if !strings.Contains(page, w) {
					t.Errorf("report.html lacks %q", w)
				}
			}
			for _, n := range c.not {
				if strings.Contains(page, n) {
					t.Errorf("report.html has %q", n)
				}
			}
		})
	}
}
