package scrape

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/series"
)

// t0 is when test scrapes happen, on a run that started at t0 too.
var t0 = time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)

// testTarget returns a target named "t" keeping what series select, with a
// preset when preset is set.
func testTarget(t *testing.T, preset string, selectors ...string) *target {
	t.Helper()
	cfg := &Target{Name: "t", URL: "http://127.0.0.1:1/metrics", Preset: preset, Interval: time.Second,
		Labels: []series.Label{{Name: "role", Value: "app"}}}
	for _, s := range selectors {
		sel, err := plan.ParseSelector(s)
		if err != nil {
			t.Fatalf("selector %s: %v", s, err)
		}
		cfg.Series = append(cfg.Series, sel)
	}
	tg, err := newTarget(cfg, newBounds())
	if err != nil {
		t.Fatal(err)
	}
	return tg
}

// scrapeAt is one exposition and when it was scraped, in seconds after t0.
type scrapeAt struct {
	at   float64
	text string
}

// lines renders a set as sorted "key kind sec=value" lines, labels of the
// target left out.
func lines(set series.Set) []string {
	var out []string
	for _, s := range set {
		var own []series.Label
		for _, l := range s.Labels {
			if l.Name != "role" && l.Name != "target" {
				own = append(own, l)
			}
		}
		k := (&series.Series{Name: s.Name, Labels: own}).Key()
		for _, p := range s.Points {
			out = append(out, fmt.Sprintf("%s %s %d=%s", k, s.Kind, p.Sec, formatFloat(p.Value)))
		}
	}
	sort.Strings(out)
	return out
}

func TestConvertRatesAndSelection(t *testing.T) {
	const counter = "# TYPE reqs_total counter\nreqs_total{path=\"/a\"} %v\n"
	tests := []struct {
		name      string
		preset    string
		selectors []string // none: every series
		scrapes   []scrapeAt
		want      []string // of the last scrape
	}{
		{"first scrape of a counter gives no rate", "", nil, []scrapeAt{{0, fmt.Sprintf(counter, 10)}}, nil},
		{"counter to rate over two scrapes", "", nil,
			[]scrapeAt{{0, fmt.Sprintf(counter, 10)}, {2, fmt.Sprintf(counter, 30)}},
			[]string{`reqs_total{path="/a"} rate 2=10`}},
		{"a drop is a restart from zero", "", nil,
			[]scrapeAt{{0, fmt.Sprintf(counter, 100)}, {5, fmt.Sprintf(counter, 200)}, {10, fmt.Sprintf(counter, 20)}},
			[]string{`reqs_total{path="/a"} rate 10=4`}},
		{"rates use the real time between scrapes, points the floor of the second", "", nil,
			[]scrapeAt{{0.5, fmt.Sprintf(counter, 0)}, {1.75, fmt.Sprintf(counter, 5)}},
			[]string{`reqs_total{path="/a"} rate 1=4`}},
		{"no rate over less than half the interval: a late answer and the next on time", "", nil,
			[]scrapeAt{{0, fmt.Sprintf(counter, 0)}, {1.9, fmt.Sprintf(counter, 19)}, {2.05, fmt.Sprintf(counter, 22)}},
			nil},
		{"the next rate spans the skipped scrape", "", nil,
			[]scrapeAt{{0, fmt.Sprintf(counter, 0)}, {1.9, fmt.Sprintf(counter, 19)}, {2.05, fmt.Sprintf(counter, 22)}, {3.1, fmt.Sprintf(counter, 31)}},
			[]string{`reqs_total{path="/a"} rate 3=10`}},
		{"gauges as read, NaN dropped", "", nil,
			[]scrapeAt{{3, "# TYPE g gauge\ng{a=\"1\"} 7.5\ng{a=\"2\"} NaN\ng{a=\"3\"} +Inf\n"}},
			[]string{`g{a="1"} gauge 3=7.5`}},
		{"untyped _total is a counter, other untyped a gauge", "", nil,
			[]scrapeAt{{0, "u_total 1\nu 5\n"}, {1, "u_total 3\nu 6\n"}},
			[]string{`u gauge 1=6`, `u_total rate 1=2`}},
		{"summary: sum and count as rates, no quantiles", "", nil,
			[]scrapeAt{
				{0, "# TYPE s summary\ns{quantile=\"0.5\"} 0.1\ns_sum 1\ns_count 10\n"},
				{1, "# TYPE s summary\ns{quantile=\"0.5\"} 0.2\ns_sum 3\ns_count 14\n"}},
			[]string{`s_count rate 1=4`, `s_sum rate 1=2`}},
		{"histogram: no buckets unless asked", "", []string{"h"},
			[]scrapeAt{{0, histogram(1, 1, 1)}, {1, histogram(3, 2, 2)}},
			[]string{`h_count rate 1=1`, `h_sum rate 1=2`}},
		{"histogram buckets asked for by name", "", []string{"h_bucket"},
			[]scrapeAt{{0, histogram(1, 1, 1)}, {1, histogram(3, 2, 2)}},
			[]string{`h_bucket{le="+Inf"} rate 1=1`, `h_bucket{le="0.5"} rate 1=1`}},
		{"histogram buckets asked for with an le matcher", "", []string{`h{le="0.5"}`},
			[]scrapeAt{{0, histogram(1, 1, 1)}, {1, histogram(3, 4, 2)}},
			[]string{`h_bucket{le="0.5"} rate 1=3`}},
		{"a family regex does not ask for buckets", "", []string{`{__name__=~"h.*"}`},
			[]scrapeAt{{0, histogram(1, 1, 1)}, {1, histogram(3, 2, 2)}},
			[]string{`h_count rate 1=1`, `h_sum rate 1=2`}},
		{"only the _count by its own name, with a label matcher", "", []string{`s_count{uri="/a"}`},
			[]scrapeAt{
				{0, "# TYPE s summary\ns_sum{uri=\"/a\"} 1\ns_count{uri=\"/a\"} 10\ns_count{uri=\"/b\"} 10\n"},
				{1, "# TYPE s summary\ns_sum{uri=\"/a\"} 2\ns_count{uri=\"/a\"} 12\ns_count{uri=\"/b\"} 10\n"}},
			[]string{`s_count{uri="/a"} rate 1=2`}},
		{"summary quantiles asked for with a quantile matcher", "", []string{`s{quantile="0.5"}`},
			[]scrapeAt{{4, "# TYPE s summary\ns{quantile=\"0.5\"} 0.2\ns{quantile=\"0.9\"} 0.4\ns_sum 3\ns_count 14\n"}},
			[]string{`s{quantile="0.5"} gauge 4=0.2`}},
		{"a vanished counter starts again without a rate", "", nil,
			[]scrapeAt{{0, fmt.Sprintf(counter, 1)}, {1, "# TYPE g gauge\ng 1\n"}, {2, fmt.Sprintf(counter, 50)}},
			nil},
		{"an exposed label clashing with the target's is renamed", "", nil,
			[]scrapeAt{{0, "# TYPE g gauge\ng{role=\"db\",target=\"x\"} 1\n"}},
			[]string{`g{exported_role="db",exported_target="x"} gauge 0=1`}},
		{"preset plus a chosen series", "redis", []string{"redis_uptime_in_seconds"},
			[]scrapeAt{{0, "# TYPE redis_up gauge\nredis_up 1\n# TYPE redis_uptime_in_seconds gauge\nredis_uptime_in_seconds 9\n# TYPE redis_blocked_clients gauge\nredis_blocked_clients 0\n"}},
			[]string{`redis_up gauge 0=1`, `redis_uptime_in_seconds gauge 0=9`}},
		{"node CPU: rates summed over CPUs per mode, each CPU's idle, and the CPU count", "node", nil,
			[]scrapeAt{{0, nodeCPU(10, 20, 100, 200)}, {2, nodeCPU(12, 26, 101, 201)}},
			[]string{`node_cpu_count gauge 2=2`, `node_cpu_seconds_total{cpu="0",mode="idle"} rate 2=0.5`, `node_cpu_seconds_total{cpu="1",mode="idle"} rate 2=0.5`,
				`node_cpu_seconds_total{mode="idle"} rate 2=1`, `node_cpu_seconds_total{mode="user"} rate 2=4`}},
		{"node CPU: one CPU's counter reset keeps the sum right", "node", nil,
			[]scrapeAt{{0, nodeCPU(10, 20, 100, 200)}, {2, nodeCPU(12, 2, 101, 201)}},
			[]string{`node_cpu_count gauge 2=2`, `node_cpu_seconds_total{cpu="0",mode="idle"} rate 2=0.5`, `node_cpu_seconds_total{cpu="1",mode="idle"} rate 2=0.5`,
				`node_cpu_seconds_total{mode="idle"} rate 2=1`, `node_cpu_seconds_total{mode="user"} rate 2=2`}}, // cpu 1 went 20 → 2: 2 since its restart
		{"postgres connections summed by state over databases", "postgres", nil,
			[]scrapeAt{{1, "# TYPE pg_stat_activity_count gauge\n" +
				"pg_stat_activity_count{datname=\"a\",state=\"active\"} 3\npg_stat_activity_count{datname=\"b\",state=\"active\"} 4\n" +
				"pg_stat_activity_count{datname=\"a\",state=\"idle\"} 1\n"}},
			[]string{`pg_stat_activity_count{state="active"} gauge 1=7`, `pg_stat_activity_count{state="idle"} gauge 1=1`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tg := testTarget(t, tt.preset, tt.selectors...)
			var got series.Set
			for _, sc := range tt.scrapes {
				at := t0.Add(time.Duration(sc.at * float64(time.Second)))
				var err error
				if got, err = tg.convert(context.Background(), []byte(sc.text), at, int(math.Floor(sc.at))); err != nil {
					t.Fatalf("convert at %vs: %v", sc.at, err)
				}
			}
			if g := lines(got); strings.Join(g, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("kept:\n%s\nwant:\n%s", strings.Join(g, "\n"), strings.Join(tt.want, "\n"))
			}
			for _, s := range got {
				if s.Label("target") != "t" || s.Label("role") != "app" {
					t.Errorf("%s lacks the target's labels", s.Key())
				}
			}
		})
	}
}

// histogram renders a histogram h with sum, one bucket at 0.5 and count.
func histogram(sum, le05, count float64) string {
	return fmt.Sprintf("# TYPE h histogram\nh_bucket{le=\"0.5\"} %v\nh_bucket{le=\"+Inf\"} %v\nh_sum %v\nh_count %v\n", le05, count, sum, count)
}

// nodeCPU renders node_cpu_seconds_total of two CPUs in modes user and idle.
func nodeCPU(user0, user1, idle0, idle1 float64) string {
	return fmt.Sprintf("# TYPE node_cpu_seconds_total counter\n"+
		"node_cpu_seconds_total{cpu=\"0\",mode=\"idle\"} %v\nnode_cpu_seconds_total{cpu=\"0\",mode=\"user\"} %v\n"+
		"node_cpu_seconds_total{cpu=\"1\",mode=\"idle\"} %v\nnode_cpu_seconds_total{cpu=\"1\",mode=\"user\"} %v\n",
		idle0, user0, idle1, user1)
}

func TestSecondAlignment(t *testing.T) {
	tests := []struct {
		name  string
		after time.Duration
		want  int
	}{
		{"at the start", 0, 0},
		{"just before the first second ends", 999 * time.Millisecond, 0},
		{"on a second's boundary", 3 * time.Second, 3},
		{"inside a second", 3*time.Second + 400*time.Millisecond, 3},
		{"before the start", -300 * time.Millisecond, -1},
		{"a whole second before the start", -time.Second, -1},
	}
	s := &Scraper{start: t0}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := s.second(t0.Add(tt.after)); got != tt.want {
				t.Errorf("second(start%+v) = %d, want %d", tt.after, got, tt.want)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name string
		text string
		want string
	}{
		{"garbage", "<html>oops</html>\n", "not Prometheus text exposition: text format parsing error in line 1"},
		{"a value that is not a number", "m{a=\"b\"} many\n", "not Prometheus text exposition: text format parsing error in line 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := testTarget(t, "").convert(context.Background(), []byte(tt.text), t0, 0)
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) || kindOf(err) != KindParse {
				t.Errorf("error %v (kind %s), want one starting %q of kind parse", err, kindOf(err), tt.want)
			}
		})
	}
}
