package diagnose

import (
	"slices"
	"strings"
	"testing"

	"github.com/loadlens/loadlens/internal/series"
)

// TestCPUBoundLoopbackTarget checks the CPU verdicts of the s36 trial's
// CPU-bound Go service (GOMAXPROCS 1, taskset -c 1, on 127.0.0.1, scraped
// with the go preset): its recorded runs, where other processes filled the
// host, and the same service given its core, scraped every 10 s as a
// starved Go runtime answers its /metrics.
func TestCPUBoundLoopbackTarget(t *testing.T) {
	cases := []struct {
		name  string
		in    func(t *testing.T) Input
		local []string // Input.LocalTargets
		kind  string
		want  *expect // nil: the run must not raise kind
	}{
		{"the trial at 100 req/s, target on loopback: the host took its core", replay("trialA-cpu100"), []string{"app"}, KindTargetHostBusy,
			&expect{Critical, [2]int{3, 3}, [2]int{33, 33},
				[]string{"App CPU taken by other processes from 0:03", "10.3% by itself"},
				[]string{"it used 0.206 cores of the 1 core it may use (median)"}}},
		{"the trial at 90 req/s, target on loopback", replay("trialA-cpu90"), []string{"app"}, KindTargetHostBusy,
			&expect{Critical, [2]int{2, 2}, [2]int{23, 23}, []string{"App CPU taken by other processes from 0:02"}, nil}},
		{"the same run, target remote: loadlens's host is not its", replay("trialA-cpu100"), nil, KindTargetHostBusy, nil},
		{"a loopback target of another name: not this process's host", replay("trialA-cpu100"), []string{"db"}, KindTargetHostBusy, nil},
		{"the trial at 100 req/s: 2–19 req/s completed of 100 is saturation", replay("trialA-cpu100"), nil, KindSaturation,
			&expect{Warning, [2]int{0, 0}, [2]int{13, 13}, []string{"Saturation: throughput stayed below the offered load from 0:00 to 0:13"},
				[]string{"busy VUs: 115 → 866, the queue grows"}}},
		{"loopback, host with an idle core: not taken", slowFrom(localGo(0.2, 1.2, 10), 10), []string{"app"}, KindTargetHostBusy, nil},
		{"loopback, host full, the target at its own limit: its own saturation", slowFrom(localGo(0.97, 2, 10), 10), []string{"app"}, KindTargetHostBusy, nil},
		{"loopback, host full, the target at its own limit", slowFrom(localGo(0.97, 2, 10), 10), []string{"app"}, KindCPUSaturation,
			&expect{Critical, [2]int{10, 10}, [2]int{39, 39}, []string{"App CPU saturated: 97% of 1 core"}, nil}},
		{"loopback, host full, the target starved", slowFrom(localGo(0.2, 2, 10), 10), []string{"app"}, KindTargetHostBusy,
			&expect{Critical, [2]int{10, 10}, [2]int{39, 39}, []string{"App CPU taken by other processes from 0:10", "10% by itself"}, nil}},
		{"loopback, host full from the start, no queue, latency flat: not shown to limit the load", slowFrom(localGo(0.2, 2, 0), 100), []string{"app"}, KindTargetHostBusy, nil},
		{"loopback, host full from 0:10, latency flat: not shown to limit the load", slowFrom(localGo(0.2, 2, 10), 100), []string{"app"}, KindTargetHostBusy, nil},
		{"the same, target remote", slowFrom(localGo(0.2, 2, 10), 10), nil, KindTargetHostBusy, nil},
		{"loopback, host full, a target wanting 0.03 cores: its latency is not the host's (s36 trial 2)", slowFrom(localGo(0.03, 2, 10), 10), []string{"app"}, KindTargetHostBusy, nil},
		{"the same, the generator waiting 40 ms to run: the host made every thread wait", slowFrom(append(localGo(0.03, 2, 10), stalled(0.04)...), 10), []string{"app"}, KindTargetHostBusy,
			&expect{Critical, [2]int{10, 10}, [2]int{39, 39}, []string{"App CPU taken by other processes from 0:10"}, nil}},
		{"pinned and given its core, scraped every 10 s: CPU saturated", slowFrom(sparseGo(0.97, 10), 10), nil, KindCPUSaturation,
			&expect{Critical, [2]int{10, 10}, [2]int{30, 30}, []string{"App CPU saturated: 97% of 1 core"}, nil}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := tc.in(t)
			in.LocalTargets = tc.local
			expectKind(t, Diagnose(in), tc.kind, tc.want)
		})
	}
}

// localGo is goService (GOMAXPROCS 1) at use cores from second from, on
// a host loadlens reads at 1.2 of its 2 cores before, host after.
func localGo(use, host float64, from int) series.Set {
	gen := []string{"role", "generator", "target", "loadlens"}
	var busy []float64
	for s := range 40 {
		busy = append(busy, level(1.2, host, from)(s))
	}
	return append(goService(use, 1, from),
		mk(HostCPU, series.Gauge, pts(0, 1, busy...), gen...),
		mk(HostCPUs, series.Gauge, pts(0, 1, repeat(2, 40)...), gen...))
}

// sparseGo is goService (GOMAXPROCS 1, use cores from 0:10) as a scrape
// that took every seconds answers it: a point each every seconds.
func sparseGo(use float64, every int) series.Set {
	var out series.Set
	for _, s := range goService(use, 1, 10) {
		var kept []series.Point
		for _, p := range s.Points {
			if p.Sec%every == 0 {
				kept = append(kept, p)
			}
		}
		out = append(out, &series.Series{Name: s.Name, Kind: s.Kind, Labels: s.Labels, Points: kept})
	}
	return out
}

// TestHealthyLoopbackRunsStayQuiet replays the corpus's healthy runs with
// every scraped target on loopback: loadlens's host reading raises no
// finding of a target whose host had CPU to spare.
func TestHealthyLoopbackRunsStayQuiet(t *testing.T) {
	for _, db := range []string{"demo-healthy", "truthapp-healthy"} {
		t.Run(db, func(t *testing.T) {
			in := replay(db)(t)
			for _, s := range in.Series {
				if v := s.Label("target"); v != "" && !slices.Contains(in.LocalTargets, v) {
					in.LocalTargets = append(in.LocalTargets, v)
				}
			}
			if len(in.Series.Find(HostCPU)) == 0 {
				t.Fatalf("%s has no %s: nothing to judge", db, HostCPU)
			}
			for _, f := range Diagnose(in) {
				if f.Kind == KindTargetHostBusy && strings.Contains(title(f), HostCPU) {
					t.Errorf("unexpected finding on loadlens's host reading: %s", title(f))
				}
			}
		})
	}
}

// stalled is the generator's scheduling latency p99 at secs seconds over
// the 40 s of localGo.
func stalled(secs float64) series.Set {
	gen := []string{"role", "generator", "target", "loadlens"}
	return series.Set{mk(GeneratorStall, series.Gauge, pts(0, 1, repeat(secs, 40)...), gen...)}
}
