package diagnose

import (
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/series"
)

// starvedClosed is issue 11's closed-model run on a starved host: 50 VUs
// against a target that answers in under a millisecond, measured at a
// 300 ms mean because the VUs waited for a CPU to read the responses. The
// generator's scheduling latency p99 is stall in the given seconds; it used
// 0.7 of its 2 cores, and the host's CPUs were hostBusy (0: not recorded).
func starvedClosed(stall time.Duration, hostBusy float64, seconds ...int) func(t *testing.T) Input {
	return func(t *testing.T) Input {
		const n = 20
		labels := []string{"role", "generator", "target", "loadlens"}
		lat := repeat(0.0002, n)
		for _, s := range seconds {
			lat[s] = stall.Seconds()
		}
		set := generatorSeries(repeat(0.7, n)...)
		if hostBusy > 0 {
			set = hostSeries(n, hostBusy, 0, 0.7)
		}
		set = append(set, mk(GeneratorStall, series.Gauge, pts(0, 1, lat...), labels...),
			mk(GeneratorCPUWait, series.Gauge, pts(0, 1, repeat(0.4, n)...), labels...))
		return Input{Run: build(t, layout(modelVUs, "GET /"), steady(n, 160, 50, 300*time.Millisecond)), Series: set}
	}
}

func TestStarvedGeneratorIsNamed(t *testing.T) {
	every := func(from, to int) []int {
		var s []int
		for i := from; i <= to; i++ {
			s = append(s, i)
		}
		return s
	}
	cases := []struct {
		name  string
		in    func(t *testing.T) Input
		kind  string
		want  *expect
		never []string
	}{
		{"a closed model whose VUs waited 250 ms for a CPU beside a 300 ms p95", starvedClosed(250*time.Millisecond, 0, every(2, 19)...), KindGeneratorBound,
			&expect{Critical, [2]int{2, 2}, [2]int{19, 19}, []string{"The load generator is the bottleneck from 0:02: its goroutines waited up to 250ms for a CPU (scheduling latency p99)"},
				[]string{"loadlens's goroutines waited 250ms (p99) for a CPU beside a p95 of", "runnable but not running for 0.4 cores", "meanwhile loadlens used 0.7 cores"}}, nil},
		{"the same on a host busy with other processes is the host's", starvedClosed(250*time.Millisecond, 1.94, every(2, 19)...), KindHostBusy,
			&expect{Critical, [2]int{2, 2}, [2]int{19, 19}, []string{"The generator's host was short of CPU from 0:02", "its goroutines waited for a CPU, scheduling latency p99 up to 250ms"}, nil},
			[]string{"The load generator is the bottleneck"}},
		{"5 ms of scheduling latency beside a 300 ms p95 is noise", starvedClosed(5*time.Millisecond, 0, every(2, 19)...), KindGeneratorBound, nil, nil},
		{"two stalled seconds are a hiccup", starvedClosed(250*time.Millisecond, 0, 5, 6), KindGeneratorBound, nil, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fs := Diagnose(tc.in(t))
			if _, found := expectKind(t, fs, tc.kind, tc.want); !found {
				return
			}
			for _, g := range fs {
				for _, bad := range tc.never {
					if strings.Contains(title(g), bad) {
						t.Errorf("finding %q says %q", title(g), bad)
					}
				}
			}
		})
	}
}

// TestDropsNameWhatHeldThePool: the drops of an open-model run name what
// held its VU pool, from the series the generator records.
func TestDropsNameWhatHeldThePool(t *testing.T) {
	cases := []struct {
		reason, says string
	}{
		{"open_files", "the pool held at 36 by the process's open-file limit"},
		{"max_vus", "the pool held at 36 by max_vus"},
		{"generator_cpu", "the pool held at 36 by loadlens's own CPU, used up"},
	}
	for _, c := range cases {
		t.Run(c.reason, func(t *testing.T) {
			in := dropping(t)
			held := make([]float64, 10)
			for i := range held {
				held[i] = 36
			}
			in.Series = series.Set{mk(GeneratorPoolHeld, series.Gauge, pts(10, 1, held...), "role", "generator", "target", "loadlens", "scenario", "s", "reason", c.reason)}
			f, found := findKind(Diagnose(in), KindGeneratorBound)
			if !found {
				t.Fatal("no generator-bound finding")
			}
			if !strings.Contains(title(f), c.says) || !hasEvidence(f, "the VU pool was held at 36 by") {
				t.Fatalf("the finding does not name the cause %q: %s; %+v", c.says, title(f), f.Evidence)
			}
		})
	}
}
