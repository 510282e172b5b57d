package diagnose

import (
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/series"
)

// ownQuotaRun is a 20-second open run in which loadlens ran in a container
// with a 1.5-core CPU quota (its capacity recorded as the quota), used the
// given cores, and had share of its 10 periods a second throttled from
// second 5 to 15. lag adds 80 ms of scheduler lag then; host >= 0 adds its
// host's (the node's) reading, busy cores of 2.
func ownQuotaRun(used, share float64, lag bool, host float64) func(t *testing.T) Input {
	return func(t *testing.T) Input {
		const n = 20
		secs := steady(n, 100, 3, 10*time.Millisecond)
		thr, held := make([]float64, n), make([]float64, n)
		for s := 5; s <= 15; s++ {
			thr[s], held[s] = 10*share, 0.5*share
			if lag {
				secs[s].lag = 80 * time.Millisecond
			}
		}
		labels := []string{"role", "generator", "target", "loadlens"}
		set := series.Set{mk(GeneratorCPU, series.Gauge, pts(0, 1, repeat(used, n)...), labels...),
			mk(GeneratorCapacity, series.Gauge, pts(0, 1, repeat(1.5, n)...), labels...),
			mk(GeneratorQuota, series.Gauge, pts(0, 1, repeat(1.5, n)...), labels...),
			mk(GeneratorPeriods, series.Rate, pts(0, 1, repeat(10, n)...), labels...),
			mk(GeneratorThrottled, series.Rate, pts(0, 1, thr...), labels...),
			mk(GeneratorThrottledSec, series.Rate, pts(0, 1, held...), labels...)}
		if host >= 0 {
			set = append(set, mk(HostCPU, series.Gauge, pts(0, 1, repeat(host, n)...), labels...),
				mk(HostSteal, series.Gauge, pts(0, 1, repeat(0, n)...), labels...),
				mk(HostCPUs, series.Gauge, pts(0, 1, repeat(2, n)...), labels...))
		}
		return Input{Run: build(t, layout(modelArrivalRate, "GET /"), secs), Series: set}
	}
}

// TestGeneratorQuota checks that loadlens's own container throttled at its
// CPU quota is named as the generator's limit, that a quota it stayed
// under is not, and that the host's CPU under a quota is called the node's.
func TestGeneratorQuota(t *testing.T) {
	tests := []struct {
		name  string
		in    func(t *testing.T) Input
		kind  string // the finding expected; "" for neither generator-bound nor host-busy
		title []string
		never []string // in no finding's title
	}{
		{"throttled in 62% of periods while its CPU read 80% of the quota", ownQuotaRun(1.2, 0.62, false, -1), KindGeneratorBound,
			[]string{"The load generator is the bottleneck from 0:05: loadlens's own container was throttled in 62% of periods at its quota of 1.5 cores", NotTheTargets},
			[]string{"CPU throttled"}},
		{"throttled with lag on a busy node: its quota, not the node", ownQuotaRun(1.45, 0.62, true, 1.9), KindGeneratorBound,
			[]string{"loadlens's own container was throttled in 62% of periods", "scheduler lag p99 up to 80"},
			[]string{"short of CPU", "not a lack of CPU"}},
		{"under a 1.5-core quota at 40%, never throttled", ownQuotaRun(0.6, 0, false, -1), "", nil, []string{"throttled"}},
		{"throttled in 5% of periods: a few ms at the tail", ownQuotaRun(0.9, 0.05, false, -1), "", nil, []string{"throttled"}},
		{"lag on a busy node, the quota unspent: the node's CPUs", ownQuotaRun(0.04, 0, true, 1.94), KindHostBusy,
			[]string{"The generator's node was short of CPU from 0:05: it was busy with other processes, 97% of 2 cores in use"}, nil},
		{"a laptop: no quota, the host's CPUs", busyHost(1.94, 0), KindHostBusy,
			[]string{"The generator's host was short of CPU from 0:05"}, []string{"node"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := Diagnose(tt.in(t))
			for _, f := range fs {
				for _, n := range tt.never {
					if strings.Contains(title(f), n) {
						t.Errorf("%s says %q: %s", f.Kind, n, title(f))
					}
				}
			}
			for _, k := range []string{KindGeneratorBound, KindHostBusy} {
				if f, ok := findKind(fs, k); ok && k != tt.kind {
					t.Errorf("unexpected %s: %s", k, title(f))
				}
			}
			if tt.kind == "" {
				return
			}
			f, ok := findKind(fs, tt.kind)
			if !ok {
				t.Fatalf("no %s finding; got %s", tt.kind, titles(fs))
			}
			for _, w := range tt.title {
				if !strings.Contains(title(f), w) {
					t.Errorf("title %q\nwant it to hold %q", title(f), w)
				}
			}
		})
	}
}
