package app

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/diagnose"
	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/report"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/series"
	"github.com/loadlens/loadlens/internal/units"
)

// bareObservations keeps series without a run.db, for the feed's tests.
func bareObservations() *observations {
	return &observations{byKey: map[string]*series.Series{}, failures: map[string]bool{}}
}

// grow appends points at the given seconds to the idx-th kept series,
// keeping it first when it is new, as observations.add does.
func (o *observations) grow(idx int, name string, secs ...int) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if idx == len(o.set) {
		kind := series.Gauge
		if strings.HasSuffix(name, "_total") {
			kind = series.Rate
		}
		o.set = append(o.set, &series.Series{Name: name, Kind: kind, Labels: []series.Label{{Name: "role", Value: "app"}, {Name: "target", Value: "app"}}})
	}
	for _, s := range secs {
		o.set[idx].Points = append(o.set[idx].Points, series.Point{Sec: s, Value: float64(s)})
	}
}

func TestFeedSendsOnlyWhatIsNew(t *testing.T) {
	type growth struct {
		idx  int
		name string
		secs []int
	}
	steps := []struct {
		name       string
		grow       []growth
		wantNew    []int         // ids described for the first time
		wantPoints map[int][]int // id → seconds sent
	}{
		{"first series", []growth{{0, "go_sql_in_use_connections", []int{0}}, {1, "up", []int{0}}},
			[]int{0, 1}, map[int][]int{0: {0}, 1: {0}}},
		{"nothing new", nil, nil, nil},
		{"more points and a new series", []growth{{0, "", []int{1, 2}}, {2, "go_sql_max_open_connections", []int{2}}},
			[]int{2}, map[int][]int{0: {1, 2}, 2: {2}}},
		{"a new series without points yet", []growth{{3, "go_goroutines", nil}}, []int{3}, map[int][]int{}},
		{"an old series only", []growth{{1, "", []int{3}}}, nil, map[int][]int{1: {3}}},
	}
	o := bareObservations()
	f := &dashboardFeed{obs: o, describe: report.NewSeriesDescriber(units.Requests)}
	sent := 0
	for _, st := range steps {
		for _, g := range st.grow {
			o.grow(g.idx, g.name, g.secs...)
			sent += len(g.secs)
		}
		d := f.observedDelta()
		if st.wantNew == nil && st.wantPoints == nil {
			if d != nil {
				t.Fatalf("%s: delta %+v, want none", st.name, d)
			}
			continue
		}
		var gotNew []int
		for _, m := range d.New {
			gotNew = append(gotNew, m.ID)
		}
		if !equalInts(gotNew, st.wantNew) {
			t.Errorf("%s: new series %v, want %v", st.name, gotNew, st.wantNew)
		}
		gotPoints := map[int][]int{}
		for _, p := range d.Points {
			gotPoints[p.ID] = p.Secs
		}
		if len(gotPoints) != len(st.wantPoints) {
			t.Errorf("%s: points of %d series, want %d: %v", st.name, len(gotPoints), len(st.wantPoints), gotPoints)
		}
		for id, want := range st.wantPoints {
			if !equalInts(gotPoints[id], want) {
				t.Errorf("%s: series %d got seconds %v, want %v", st.name, id, gotPoints[id], want)
			}
		}
	}
	mirrored := 0
	for _, s := range f.seriesSoFar() {
		mirrored += len(s.Points)
	}
	if len(f.mirror) != 4 || mirrored != sent {
		t.Errorf("the feed's copy holds %d series and %d points, want 4 and %d", len(f.mirror), mirrored, sent)
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestFeedDiagnosesLive runs a feed through the seconds of a run whose
// database pool is exhausted from the start: the dashboard must get a
// live diagnosis naming it, and the end event the final one.
func TestFeedDiagnosesLive(t *testing.T) {
	layout := sample.Layout{Scenarios: []sample.ScenarioInfo{{Name: "browse", Model: "arrival-rate"}},
		Endpoints: []sample.EndpointInfo{{Scenario: 0, Name: "GET /", Method: "GET"}}}
	in := &report.Input{Name: "live", Run: metrics.NewRun(layout), CPUs: 2}
	f, err := startDashboard(DashboardConfig{Addr: "127.0.0.1:0"}, in, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer f.close()
	o := bareObservations()
	f.obs = o
	events := subscribe(t, f.d.URL()+"events")

	rec := metrics.NewRecorder(layout, 1)
	const secs = 2 * liveDiagnosisEvery
	for sec := range secs {
		sink := rec.Sink(sec)
		for i := range 20 {
			sink.Request(&sample.Request{End: time.Duration(sec)*time.Second + time.Duration(i)*time.Millisecond,
				Duration: 50 * time.Millisecond, Status: 200})
		}
		in.Run.Add(rec.Collect(sec))
		o.grow(0, "go_sql_in_use_connections", sec)
		o.grow(1, "go_sql_max_open_connections", sec)
		o.grow(2, "go_sql_wait_count_total", sec)
		o.grow(3, "go_sql_wait_duration_seconds_total", sec)
		o.mu.Lock()
		o.set[0].Points[sec].Value, o.set[1].Points[sec].Value, o.set[2].Points[sec].Value = 10, 10, 30
		// 0.5 s waited a second over 20 requests: 25 ms of each 50 ms, a pool that limits
		o.set[3].Points[sec].Value = 0.5
		o.mu.Unlock()
		f.second(in.Run, time.Duration(sec+1)*time.Second, 0.1, nil, func() {})
	}

	var live report.Diagnosis
	for ev := range events {
		if ev.name == "diagnosis" {
			if err := json.Unmarshal([]byte(ev.data), &live); err != nil {
				t.Fatal(err)
			}
			if len(live.Findings) > 0 {
				break
			}
		}
	}
	if len(live.Findings) == 0 || live.Findings[0].Kind != "pool-exhaustion" || live.UpTo < liveDiagnosisEvery {
		t.Fatalf("live diagnosis %+v, want the pool exhaustion of the first %d seconds or more", live, liveDiagnosisEvery)
	}

	in.Status, in.Findings, in.Healthy = "completed", nil, &diagnose.Verdict{Parts: diagnose.Words("no bottleneck found")}
	o.grow(0, "", secs) // a scrape that came after the last second
	f.end(in, "results/x/report.html", nil)
	var final report.Final
	for ev := range events {
		if ev.name == "end" {
			if err := json.Unmarshal([]byte(ev.data), &final); err != nil {
				t.Fatal(err)
			}
			break
		}
	}
	if final.Diagnosis.Healthy != "No bottleneck found" || len(final.Diagnosis.Findings) != 0 {
		t.Errorf("final diagnosis %+v, want the run's own, not the live one", final.Diagnosis)
	}
	if final.Observed == nil || len(final.Observed.Points) != 1 || final.Observed.Points[0].Secs[0] != secs {
		t.Errorf("end event's points %+v, want the one scraped after the last second", final.Observed)
	}
}

// sseEvent is one server-sent event.
type sseEvent struct{ name, data string }

// subscribe reads a dashboard's events until the stream ends (at most 30 s).
func subscribe(t *testing.T, url string) <-chan sseEvent {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	req, err := http.NewRequestWithContext(ctx, "GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	out := make(chan sseEvent, 256)
	go func() {
		defer close(out)
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(nil, 1<<20)
		var ev sseEvent
		for sc.Scan() {
			line := sc.Text()
			switch {
			case line == "" && ev.name != "":
				out <- ev
				ev = sseEvent{}
			case strings.HasPrefix(line, "event: "):
				ev.name = strings.TrimPrefix(line, "event: ")
			case strings.HasPrefix(line, "data: "):
				ev.data += strings.TrimPrefix(line, "data: ")
			}
		}
	}()
	return out
}
