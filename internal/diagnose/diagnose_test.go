package diagnose

import (
	"encoding/json"
	"flag"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	goldenfile "github.com/loadlens/loadlens/internal/golden"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/series"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// incident is case study 5's coupon run seen from every side: the pool runs
// out, the DB host's CPU saturates, timeouts follow, the JVM pauses for GC;
// the generator itself stays idle.
func incident(t *testing.T) Input {
	in := hikari(true)(t)
	// The DB's CPU, full from 0:15, slowed the requests from then on.
	secs := steady(40, 100, 20, 30*time.Millisecond)
	for i := 15; i < len(secs); i++ {
		secs[i].reqs[0].dur = even(90*time.Millisecond, 0.5)
		if i >= 17 && i <= 27 {
			secs[i].reqs[0].fail, secs[i].reqs[0].kind = 5, sample.Timeout
		}
	}
	in.Run = build(t, layout(modelVUs, "POST /coupons/issue"), secs)
	in.Series = append(in.Series, nodeCPU(0.46, 0.9, 15)...)
	in.Series = append(in.Series, jvmGC(t).Series...)
	in.Series = append(in.Series, generatorSeries(repeat(0.4, 40)...)...)
	return in
}

// healthyEverywhere is the knee-free ramp with server series that are all
// within bounds.
func healthyEverywhere(t *testing.T) Input {
	in := healthyRamp(t)
	in.Series = append(hikari(false)(t).Series, nodeCPU(0.46, 0.46, 0)...)
	in.Series = append(in.Series, goGC(false)(t).Series...)
	in.Series = append(in.Series, generatorSeries(repeat(0.8, 30)...)...)
	return in
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	goldenfile.Check(t, filepath.Join("testdata", name), got, *update)
}

// Golden is what the golden files hold of a diagnosis: its data, which
// report's tests render into the text every page shows.
type Golden struct {
	Findings []Finding `json:"findings"`
	Healthy  *Verdict  `json:"healthy"`
}

func TestDiagnosisGolden(t *testing.T) {
	cases := []struct {
		name string
		in   func(t *testing.T) Input
	}{
		{"incident.json", incident},
		{"healthy.json", healthyEverywhere},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := tc.in(t)
			fs := Diagnose(in)
			got, err := json.MarshalIndent(Golden{Findings: fs, Healthy: Healthy(in, fs)}, "", " ")
			if err != nil {
				t.Fatal(err)
			}
			golden(t, tc.name, append(got, '\n'))
		})
	}
}

func TestDiagnoseOrdersBySeverityThenTime(t *testing.T) {
	fs := Diagnose(incident(t))
	want := []string{KindPoolExhaustion + "@12", KindCPUSaturation + "@15", KindErrorsAtLoad + "@17", KindGCPressure + "@10"}
	var got []string
	for _, f := range fs {
		got = append(got, f.Kind+"@"+strconv.Itoa(f.From))
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("findings %v, want %v", got, want)
	}
}

func TestHealthy(t *testing.T) {
	cases := []struct {
		name string
		in   func(t *testing.T) Input
		want []string // substrings; none means Healthy must return ""
	}{
		{"open ramp with healthy server series", healthyEverywhere, []string{
			"no bottleneck found: throughput followed the offered load, up to 680 req/s in its busiest second (at 0:29)", "p95 22.7ms", "0% of 11,700 requests failed",
			"the generator used at most 0.8 of 2 cores (40%)", "server checked (13 series): DB pool (hikaricp_connections_active), CPU (node_cpu_seconds_total), GC (go_gc_duration_seconds_sum)"}},
		// VUs rise by 10 each second, so the last second had 290 at its start and 300 at its end.
		{"closed ramp without server series", vusHealthy, []string{"throughput reached 6,000 req/s in its busiest second, with 295 VUs (at 0:20)",
			"no server series were scraped, so DB pool, CPU and GC were not checked"}},
		// A target was scraped, but for none of the series the server rules read.
		{"scraped series the rules do not read", func(t *testing.T) Input {
			in := vusHealthy(t)
			in.Series = series.Set{mk("up", series.Gauge, pts(0, 1, 1, 1, 1), "role", "app"),
				mk("srv_requests_total", series.Rate, pts(0, 1, 60, 60, 60), "role", "app")}
			return in
		}, []string{"2 server series were scraped, but none that the DB pool, CPU and GC rules read, so DB pool, CPU and GC were not checked (they read DB pool: hikaricp_connections_active",
			"GC: jvm_gc_pause_seconds_sum, go_gc_duration_seconds_sum)"}},
		{"only an info finding", endpoints([]string{"GET /products/{id}"}, []reqs{{n: 200, dur: twoPeaks(2*time.Millisecond, 48*time.Millisecond, 0.6)}}),
			[]string{"no bottleneck found"}},
		{"a warning finding", drifting(40, 20*time.Millisecond), nil},
		{"nothing recorded", func(*testing.T) Input { return Input{} }, []string{"nothing to check"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := tc.in(t)
			got := healthyText(in, Diagnose(in))
			if len(tc.want) == 0 && got != "" {
				t.Fatalf("Healthy = %q, want none for a run with findings", got)
			}
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("Healthy = %q, lacks %q", got, w)
				}
			}
		})
	}
}

func TestHealthyRunsHaveNoFindings(t *testing.T) {
	cases := []struct {
		name string
		in   func(t *testing.T) Input
	}{
		{"open ramp with healthy server series", healthyEverywhere},
		{"closed ramp that scales", vusHealthy},
		{"steady latency with noise", drifting(40, 0)},
		{"sporadic failures", sporadic},
		{"busy pool", hikari(false)},
		{"drops because the target slowed (a shift over time, not two modes)", droppingSlow},
		{"nothing recorded", func(*testing.T) Input { return Input{} }},
		{"a fast target on a quiet host: loadlens waited a twentieth of the starved run's wait", starvedOpen(0.05, 0.3)},
		{"a light run whose wake-ups waited a little on a loaded host", lightOnALoadedHost},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if fs := Diagnose(tc.in(t)); len(fs) > 0 {
				t.Errorf("findings on a healthy run: %s", titles(fs))
			}
		})
	}
}

func TestErrorsAtASteadyLoadAreNotBlamedOnLoad(t *testing.T) {
	f, ok := findKind(Diagnose(hikari(true)(t)), KindErrorsAtLoad)
	if !ok {
		t.Fatal("no errors-at-load finding")
	}
	if want := "Errors from 0:17 at a load served before (100 req/s with 20 VUs)"; !strings.HasPrefix(title(f), want) {
		t.Errorf("title %q, want it to start %q", title(f), want)
	}
}

func TestModelsOverrideTheLayout(t *testing.T) {
	in := vusDoubling(modelArrivalRate)(t)
	if _, ok := findKind(Diagnose(in), KindMoreVUsSameTPS); ok {
		t.Fatal("more-vus-same-tps on an open-model layout")
	}
	in.Models = []string{modelVUs}
	if _, ok := findKind(Diagnose(in), KindMoreVUsSameTPS); !ok {
		t.Error("Models says vus, but no more-vus-same-tps finding")
	}
}
