package report

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"html"
	"math"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/units"
)

// twoSpans is a run of 8.4 s in which GET /burst makes 100 requests inside
// second 2 while GET /steady makes 100 spread over the whole run: divided
// by the run's length both would show 11.9/s (case study 5's "same TPS
// everywhere" trap). The fastest request of each is 1.5 ms and 10 ms. It
// returns the requests too, as they were sent.
func twoSpans(t *testing.T) (*Input, []sample.Request) {
	t.Helper()
	layout := sample.Layout{
		Scenarios: []sample.ScenarioInfo{{Name: "mixed", Model: "vus"}},
		Endpoints: []sample.EndpointInfo{{Name: "GET /burst", Method: "GET"}, {Name: "GET /steady", Method: "GET"}},
	}
	rec := metrics.NewRecorder(layout, 2)
	var reqs []sample.Request
	for i := range 100 {
		reqs = append(reqs, sample.Request{Endpoint: 0, End: 2050*time.Millisecond + time.Duration(i)*9*time.Millisecond,
			Duration: 1500*time.Microsecond + time.Duration(i)*time.Millisecond, Status: 200})
		reqs = append(reqs, sample.Request{Endpoint: 1, End: 50*time.Millisecond + time.Duration(i)*82*time.Millisecond,
			Duration: 10*time.Millisecond + time.Duration(i%7)*time.Millisecond, Status: 200})
	}
	slices.SortFunc(reqs, func(a, b sample.Request) int { return cmp.Compare(a.End, b.End) })
	run := metrics.NewRun(layout)
	next := 0
	for sec := range 9 {
		for ; next < len(reqs) && reqs[next].End < time.Duration(sec+1)*time.Second; next++ {
			rec.Sink(next).Request(&reqs[next])
		}
		run.Add(rec.Collect(sec))
	}
	if next != len(reqs) {
		t.Fatalf("recorded %d of %d requests", next, len(reqs))
	}
	run.SetElapsed(8400 * time.Millisecond)
	start := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	return &Input{Name: "spans", Status: "completed", Version: "test", Start: start, End: start.Add(8400 * time.Millisecond), Run: run}, reqs
}

// recount is an endpoint's rate recomputed from the requests as sent.
type recount struct {
	requests int64
	active   float64 // seconds
	rps      float64
}

// recountFromSends recomputes the requests and rate of each endpoint of a
// closed scenario (and, last, of all of them) from the requests as sent,
// independently of the totals the renderings use: from the first one's
// intended start (end less duration) to the last one's end, when a VU
// would have sent the next.
func recountFromSends(reqs []sample.Request, endpoints int) []recount {
	out := make([]recount, endpoints+1)
	first, last := make([]float64, endpoints+1), make([]float64, endpoints+1)
	for _, r := range reqs {
		start, end := (r.End - r.Duration).Seconds(), r.End.Seconds()
		for _, k := range []int{int(r.Endpoint), endpoints} {
			if out[k].requests == 0 || start < first[k] {
				first[k] = start
			}
			last[k] = max(last[k], end)
			out[k].requests++
		}
	}
	for k := range out {
		out[k].active = last[k] - first[k]
		out[k].rps = float64(out[k].requests) / max(out[k].active, 1) // a rate is over a second at least
	}
	return out
}

// TestEndpointRatesAreOverTheSpanSent checks every rendering's per-endpoint
// rate against a recount from the requests as sent: over the span each
// endpoint was sent to, not the whole run, nor the seconds its requests
// ended in.
func TestEndpointRatesAreOverTheSpanSent(t *testing.T) {
	in, reqs := twoSpans(t)
	want := recountFromSends(reqs, 2)
	if want[0].requests != 100 || want[1].requests != 100 {
		t.Fatalf("the fixture sends %d and %d requests, want 100 each", want[0].requests, want[1].requests)
	}
	// Sent from 2.0485 s, the last answered at 2.941 s; sent from 40 ms, the last answered at 8.168 s.
	if !near(want[0].active, 0.8925) || !near(want[1].active, 8.128) {
		t.Fatalf("recounted %.4fs and %.4fs, want 0.8925s and 8.128s", want[0].active, want[1].active)
	}
	names := []string{"GET /burst", "GET /steady"}
	mins := []string{"1.50ms", "10.0ms"}

	t.Run("terminal", func(t *testing.T) {
		var b bytes.Buffer
		if err := WriteText(&b, in); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		header := regexp.MustCompile(`(?m)^ +ENDPOINT +REQS +ACTIVE +RPS +ERR% +MIN +AVG +P50 +P90 +P95 +P99 +MAX$`)
		if !header.MatchString(out) {
			t.Errorf("no endpoint header with ACTIVE, RPS and MIN:\n%s", out)
		}
		for k, name := range names {
			f := fieldsAfter(t, out, "  "+name+" ")
			if got := []string{f[0], f[1], f[2], f[4]}; fmt.Sprint(got) != fmt.Sprint([]string{"100", units.Duration(secs(want[k].active)), units.Number(want[k].rps), mins[k]}) {
				t.Errorf("%s: REQS ACTIVE RPS MIN = %v, want 100 %s %s %s", name, got, units.Duration(secs(want[k].active)), units.Number(want[k].rps), mins[k])
			}
		}
		if !strings.Contains(out, "RPS = REQS / ACTIVE") {
			t.Errorf("the terminal table does not say what RPS is over:\n%s", out)
		}
	})

	t.Run("summary.json", func(t *testing.T) {
		js, err := SummaryJSON(in)
		if err != nil {
			t.Fatal(err)
		}
		var s struct {
			Loadlens struct {
				Endpoints []struct {
					Endpoint    string  `json:"endpoint"`
					Requests    int64   `json:"requests"`
					RPS         float64 `json:"rps"`
					ActiveS     float64 `json:"active_s"`
					FirstSecond int     `json:"first_second"`
					LastSecond  int     `json:"last_second"`
					Duration    struct {
						Min float64 `json:"min"`
					} `json:"duration"`
				} `json:"endpoints"`
			} `json:"loadlens"`
		}
		if err := json.Unmarshal(js, &s); err != nil {
			t.Fatal(err)
		}
		for k, e := range s.Loadlens.Endpoints {
			if e.Endpoint != names[k] || e.Requests != want[k].requests || !near(e.RPS, want[k].rps) || !near(e.ActiveS, want[k].active) {
				t.Errorf("endpoint %d: %+v, want %s with %d requests at %.4f/s over %.2fs", k, e, names[k], want[k].requests, want[k].rps, want[k].active)
			}
		}
		if e := s.Loadlens.Endpoints[0]; e.FirstSecond != 2 || e.LastSecond != 2 || e.Duration.Min != 1.5 {
			t.Errorf("the burst: seconds %d–%d, min %vms; want 2–2, 1.5ms", e.FirstSecond, e.LastSecond, e.Duration.Min)
		}
	})

	t.Run("markdown", func(t *testing.T) {
		md := string(Markdown(in))
		if !strings.Contains(md, "| Endpoint | Requests | Active | RPS | Errors | Min | Avg |") || !strings.Contains(md, "RPS = Requests / Active") {
			t.Errorf("the Markdown endpoint table lacks Active, Min or its note:\n%s", md)
		}
		for k, name := range names {
			row := fmt.Sprintf("| %s | 100 | %s | %s | 0.00%% | %s |", name, units.Duration(secs(want[k].active)), units.Number(want[k].rps), mins[k])
			if !strings.Contains(md, row) {
				t.Errorf("Markdown lacks the row starting %q:\n%s", row, md)
			}
		}
	})

	t.Run("report.html", func(t *testing.T) {
		page := renderHTML(t, in)
		for _, want := range []string{`<th class="num">Min</th>`, `>RPS</th>`, `>Active</th>`, "RPS = Requests / Active"} {
			if !strings.Contains(page, want) {
				t.Errorf("report.html's endpoint table lacks %q", want)
			}
		}
		for k, name := range names {
			cells := htmlRow(t, page, name)
			if cells[0] != "100" || !near(parseFloat(t, cells[2]), want[k].rps) || !near(parseFloat(t, cells[1]), want[k].active) || cells[4] != "1.5" && k == 0 {
				t.Errorf("%s: sort values %v, want 100 requests, %.2fs active, %.4f/s", name, cells, want[k].active, want[k].rps)
			}
		}
	})

	t.Run("dashboard", func(t *testing.T) {
		for _, tb := range []EndpointTable{NewFinal(in, "report.html").Endpoints, NewEndpointTable(in.Run)} {
			if len(tb.Rows) != 2 || tb.All == nil || !strings.Contains(tb.Note, "RPS = Requests / Active") {
				t.Fatalf("dashboard table %+v: want 2 rows, a total and the note", tb)
			}
			for k, r := range tb.Rows {
				if r.Requests != want[k].requests || !near(r.Rate, want[k].rps) || !near(r.ActiveS, want[k].active) {
					t.Errorf("dashboard row %d: %+v, want %d requests at %.4f/s over %.2fs", k, r, want[k].requests, want[k].rps, want[k].active)
				}
			}
			if tb.Rows[0].Min != 1.5 || tb.Rows[1].Min != 10 {
				t.Errorf("dashboard min latencies %v and %v ms, want 1.5 and 10", tb.Rows[0].Min, tb.Rows[1].Min)
			}
			if tb.All.Requests != 200 || !near(tb.All.ActiveS, want[2].active) {
				t.Errorf("dashboard total %+v, want 200 requests over %.4fs", *tb.All, want[2].active)
			}
		}
	})

	t.Run("demo before/after", func(t *testing.T) {
		for k, name := range names {
			if f := EndpointFigures(in, "mixed", name); f == nil || !near(f.Throughput, want[k].rps) {
				t.Errorf("EndpointFigures(%s) = %+v, want a throughput of %.4f/s", name, f, want[k].rps)
			}
		}
	})
}

func secs(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

// fieldsAfter returns the whitespace-separated fields of the line that
// starts with prefix, after the prefix.
func fieldsAfter(t *testing.T, out, prefix string) []string {
	t.Helper()
	for _, line := range strings.Split(out, "\n") {
		if rest, ok := strings.CutPrefix(line, prefix); ok {
			return strings.Fields(rest)
		}
	}
	t.Fatalf("no line starts with %q:\n%s", prefix, out)
	return nil
}

// htmlRow returns the sort values (data-v) of the endpoint table's row of name.
func htmlRow(t *testing.T, page, name string) []string {
	t.Helper()
	m := regexp.MustCompile(`<tr><td class="name">` + regexp.QuoteMeta(html.EscapeString(name)) + `</td>(.*?)</tr>`).FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("report.html has no endpoint row %q", name)
	}
	var out []string
	for _, v := range regexp.MustCompile(`data-v="([^"]*)"`).FindAllStringSubmatch(m[1], -1) {
		out = append(out, v[1])
	}
	if len(out) != 11 {
		t.Fatalf("row %q has %d cells, want 11: %v", name, len(out), out)
	}
	return out
}

func parseFloat(t *testing.T, s string) float64 {
	t.Helper()
	var f float64
	if _, err := fmt.Sscan(s, &f); err != nil {
		t.Fatalf("%q is not a number", s)
	}
	return f
}

// TestRunFigures checks the whole-run figures the dashboard's cards show
// once a run has ended, against counts taken from the fixture's seconds.
func TestRunFigures(t *testing.T) {
	tests := []struct {
		name            string
		elapsed         time.Duration
		cpuAvg, cpuPeak float64
		wantRate        float64
	}{
		// the rate is the all endpoints row's, 300 over their 2.989 s active (to the last end less the fastest answer), however long the run
		{"whole seconds", 3 * time.Second, 29.2, 50, 300 / 2.989},
		{"a partial last second leaves its CPU out", 2500 * time.Millisecond, 18.8, 25, 300 / 2.989},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := fixture(t)
			in.CPUs, in.GeneratorCPU = 4, map[int]float64{0: 0.5, 1: 1, 2: 2}
			in.Run.SetElapsed(tt.elapsed)
			var rq, er, vu int64
			for _, s := range in.Run.Series {
				rq, er, vu = rq+s.Requests, er+s.Failed, max(vu, s.VUs)
			}
			f := NewFinal(in, "report.html").Run
			if f.Requests != rq || f.Failed != er || !near(f.Rate, tt.wantRate) || f.VUsPeak != vu || f.VUsMax != 12 || f.Dropped != 3 {
				t.Errorf("run figures %+v, want %d requests, %d failed, %.0f/s, %d VUs at most, 12 allocated, 3 dropped", f, rq, er, tt.wantRate, vu)
			}
			tot := in.Run.Total()
			if f.P95 != ms(tot.Duration.Quantile(95)) || f.ElapsedS != tt.elapsed.Seconds() {
				t.Errorf("p95 %v ms over %vs, want %v ms over %v", f.P95, f.ElapsedS, ms(tot.Duration.Quantile(95)), tt.elapsed)
			}
			if f.CPUAvg == nil || *f.CPUAvg != tt.cpuAvg || *f.CPUPeak != tt.cpuPeak {
				t.Errorf("generator CPU avg %v peak %v, want %v%% and %v%%", f.CPUAvg, f.CPUPeak, tt.cpuAvg, tt.cpuPeak)
			}
		})
	}
}

// TestRateNoteSaysWhatIsComputed checks the table's note and cells where
// the span sent is not a rate, and for a run.db of an earlier build, whose
// rates are over whole seconds: the note says which.
func TestRateNoteSaysWhatIsComputed(t *testing.T) {
	layout := sample.Layout{Scenarios: []sample.ScenarioInfo{{Name: "s", Model: "iterations"}},
		Endpoints: []sample.EndpointInfo{{Name: "GET /once", Method: "GET"}, {Name: "GET /twice", Method: "GET"}}}
	tests := []struct {
		name     string
		run      func() *metrics.Run
		note     string
		once     []string // REQS ACTIVE RPS of GET /once
		twiceRPS string
	}{
		{"sent times kept", func() *metrics.Run {
			rec := metrics.NewRecorder(layout, 1)
			rec.Sink(0).Request(&sample.Request{Endpoint: 0, End: 300 * time.Millisecond, Duration: 100 * time.Millisecond, Status: 200})
			for i := range 2 { // sent at 0.2 s and 0.7 s, the last answered at 0.8 s: 2 over 0.6 s, rated over 1 s
				rec.Sink(0).Request(&sample.Request{Endpoint: 1, End: time.Duration(300+500*i) * time.Millisecond, Duration: 100 * time.Millisecond, Status: 200})
			}
			run := metrics.NewRun(layout)
			run.Add(rec.Collect(0))
			run.SetElapsed(time.Second)
			return run
		}, "intended start", []string{"1", "-", "-"}, "2"},
		{"a run.db of an earlier build", func() *metrics.Run {
			run := metrics.NewRun(layout)
			s := metrics.NewSnapshot(0, layout)
			s.Endpoints[0].Requests, s.Endpoints[1].Requests = 1, 2
			run.Add(s)
			run.SetElapsed(time.Second)
			return run
		}, "keeps no send times", []string{"1", "1.00s", "1"}, "2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := &Input{Name: "n", Status: "completed", Version: "test", Run: tt.run()}
			var b bytes.Buffer
			if err := WriteText(&b, in); err != nil {
				t.Fatal(err)
			}
			out := b.String()
			if !strings.Contains(strings.Join(strings.Fields(out), " "), tt.note) {
				t.Errorf("the note does not say %q:\n%s", tt.note, out)
			}
			if f := fieldsAfter(t, out, "  GET /once "); fmt.Sprint(f[:3]) != fmt.Sprint(tt.once) {
				t.Errorf("GET /once: REQS ACTIVE RPS = %v, want %v", f[:3], tt.once)
			}
			if f := fieldsAfter(t, out, "  GET /twice "); f[2] != tt.twiceRPS {
				t.Errorf("GET /twice: RPS %s, want %s", f[2], tt.twiceRPS)
			}
		})
	}
}
