package report

import (
	"math"
	"strconv"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/compare"
	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/series"
	"github.com/loadlens/loadlens/internal/units"
)

// TestFramesOfAShortLastSecond checks that a last second the run's end
// cut short says which share of it the run lasted, so that the pages chart
// its rate and not a drop, while the counts and the run's totals stay as
// they were.
func TestFramesOfAShortLastSecond(t *testing.T) {
	tests := []struct {
		name    string
		elapsed time.Duration
		want    float64 // the last frame's Covered; 0: a whole second
	}{
		{"ends on a whole second", 3 * time.Second, 0},
		{"last second 0.3 s long", 2300 * time.Millisecond, 0.3},
		{"last second 0.1 ms long", 2000*time.Millisecond + 100*time.Microsecond, 0.001},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := longRun(t, 3, 1)
			in.Run.SetElapsed(tt.elapsed)
			frames := Frames(in)
			for i, f := range frames[:len(frames)-1] {
				if f.Covered != 0 {
					t.Errorf("frame %d: Covered = %v, want 0 (a whole second)", i, f.Covered)
				}
			}
			last := frames[len(frames)-1]
			if math.Abs(last.Covered-tt.want) > 1e-9 {
				t.Errorf("last frame: Covered = %v, want %v", last.Covered, tt.want)
			}
			if last.Requests != in.Run.Series[2].Requests {
				t.Errorf("last frame: Requests = %d, want the second's count %d", last.Requests, in.Run.Series[2].Requests)
			}
			if got, want := NewRunFigures(in).Requests, in.Run.Total().Requests; got != want || want != 150 {
				t.Errorf("the run's requests = %d, want %d (150)", got, want)
			}
		})
	}
}

// TestPerSecondSeries checks which of the generator's series a page
// divides by the share of a short last second: counts in a second, not
// gauges.
func TestPerSecondSeries(t *testing.T) {
	d := NewSeriesDescriber(units.Requests)
	for _, tt := range []struct {
		name string
		want bool
	}{
		{"loadlens_received_bytes", true},
		{"loadlens_sent_bytes", true},
		{"loadlens_agent_requests", true},
		{"loadlens_agent_iterations", true},
		{"loadlens_agent_offered", true},
		{"loadlens_agent_dropped", true},
		{"loadlens_agent_errors", true},
		{"loadlens_cpu_cores", false},
		{"loadlens_agent_cpu_cores", false},
		{"loadlens_goroutines", false},
		{"hikaricp_connections_active", false},
		{"http_server_requests_seconds_count", false}, // a scraped rate: already over the time between scrapes
	} {
		s := &series.Series{Name: tt.name, Labels: []series.Label{{Name: "role", Value: RoleGenerator}}}
		if got := d.Describe(0, s).PerSec; got != tt.want {
			t.Errorf("%s: PerSec = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestComparePageChartsAShortLastSecondsRate checks that compare's charts
// give a run's last second, 0.3 s long, its rate: 30 requests in 0.3 s
// chart as 100/s, not as a drop to 30; one under a tenth of a second
// charts nothing.
func TestComparePageChartsAShortLastSecondsRate(t *testing.T) {
	secs := []metrics.Second{{Sec: 0, Requests: 100, Failed: 10}, {Sec: 1, Requests: 100, Failed: 10}, {Sec: 2, Requests: 30, Failed: 3}}
	for _, tt := range []struct {
		name           string
		covered        float64
		wantRq, wantEr string
	}{
		{"last second whole", 1, "30", "3"},
		{"last second 0.3 s long", 0.3, "none", "none"},
		{"last second 0.05 s long", 0.05, "none", "none"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := &compare.Report{Runs: []compare.RunInfo{{Name: "a", Label: "A", Last: 2, LoadUnit: "req/s"}}, Groups: []compare.GroupInfo{{}},
				Seconds: [][]metrics.Second{secs}, Loads: [][]float64{{100, 100, 30}}, LastCovered: []float64{tt.covered}}
			runs := comparePageData(r)["runs"].([]compareSeries)
			rq, er := runs[0].Requests, runs[0].Failed
			if show(runs[0].Load[2]) != tt.wantRq {
				t.Errorf("last second: offered %s req/s, want %s", show(runs[0].Load[2]), tt.wantRq)
			}
			r.Runs[0].LoadUnit, r.Loads[0][2] = "VUs", 7
			if load := comparePageData(r)["runs"].([]compareSeries)[0].Load; show(load[2]) != "7" {
				t.Errorf("last second: %s VUs, want the 7 it had (a gauge)", show(load[2]))
			}
			if show(rq[0]) != "100" || show(er[0]) != "10" {
				t.Errorf("whole second: %s requests/s and %s errors/s, want 100 and 10", show(rq[0]), show(er[0]))
			}
			if show(rq[2]) != tt.wantRq || show(er[2]) != tt.wantEr {
				t.Errorf("last second: %s requests/s and %s errors/s, want %s and %s", show(rq[2]), show(er[2]), tt.wantRq, tt.wantEr)
			}
		})
	}
}

func show(v *float64) string {
	if v == nil {
		return "none"
	}
	return strconv.FormatFloat(*v, 'f', -1, 64)
}
