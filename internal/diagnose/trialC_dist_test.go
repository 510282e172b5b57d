package diagnose

import (
	"path/filepath"
	"testing"

	"github.com/loadlens/loadlens/internal/series"
)

// withHost adds the generator host's CPU (busy cores of cpus) to a run's
// series, as the coordinator records it for agents on its own host, and
// scales loadlens's own CPU to share of its capacity when share > 0.
func withHost(in Input, busy, cpus, share float64) Input {
	labels := []series.Label{{Name: "role", Value: "generator"}, {Name: "target", Value: "loadlens"}}
	var secs []int
	for _, s := range in.Series.Find(GeneratorCPU, "target", "loadlens") {
		for i, p := range s.Points {
			secs = append(secs, p.Sec)
			if share > 0 {
				s.Points[i].Value = share * 2 // the agents' 2 cores each
			}
		}
	}
	host := &series.Series{Name: HostCPU, Labels: labels, Kind: series.Gauge}
	n := &series.Series{Name: HostCPUs, Labels: labels, Kind: series.Gauge}
	for _, sec := range secs {
		host.Points = append(host.Points, series.Point{Sec: sec, Value: busy})
		n.Points = append(n.Points, series.Point{Sec: sec, Value: cpus})
	}
	in.Series = append(in.Series, host, n)
	return in
}

// TestTrialCDistributedLateOnABusyHost: trial C's two local agents started
// iterations up to 218 ms late on a host at load 9 while they used 0.01
// cores. With the host's CPU the coordinator now records for agents on its
// own host, that is the host's business, not loadlens's; agents that used
// their cores stay generator-bound.
func TestTrialCDistributedLateOnABusyHost(t *testing.T) {
	cases := []struct {
		name       string
		busy, cpus float64
		share      float64 // loadlens's share of its cores; 0: as recorded
		want, not  string
	}{
		{"idle agents on a busy host", 1.96, 2, 0, KindHostBusy, KindGeneratorBound},
		{"agents that used their cores on a busy host", 1.96, 2, 0.95, KindGeneratorBound, KindHostBusy},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in, _ := diagnoseRunDB(t, filepath.Join("testdata", "corpus", "trialC-dist.db"))
			fs := Diagnose(withHost(in, tc.busy, tc.cpus, tc.share))
			var got []string
			for _, f := range fs {
				got = append(got, f.Kind+": "+title(f))
			}
			if !hasKind(fs, tc.want) || hasKind(fs, tc.not) {
				t.Errorf("findings %q, want %s and no %s", got, tc.want, tc.not)
			}
		})
	}
}

// hasKind reports whether a finding of kind k is among fs.
func hasKind(fs []Finding, k string) bool {
	for _, f := range fs {
		if f.Kind == k {
			return true
		}
	}
	return false
}
