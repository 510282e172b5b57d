package diagnose

import (
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/series"
)

// TestPoolQueueOnBusyHost checks a pool too small for the load on a host
// busy with other processes (issue 20's pool-small, read as "the load
// generator is the bottleneck … the numbers are not the target's"): the
// generator was late at the start, then the target queued requests for
// seconds while the generator lost tens of milliseconds. The pool leads;
// the generator's finding follows it and says what it lost. A generator
// as late before a fast target stays the bottleneck.
func TestPoolQueueOnBusyHost(t *testing.T) {
	cases := []struct {
		name  string
		in    func(t *testing.T) Input
		kind  string
		want  *expect
		never []string // substrings the kind's title, evidence and remedies may not hold
	}{
		{"the reproduction's run: a pool of 2 at twice its rate, two CPU hogs, lag p99 up to 135ms, p95 to 5.1s", replay("poolbusy-host"), KindHostBusy,
			&expect{Warning, [2]int{0, 0}, [2]int{4, 4},
				[]string{"The generator's host was short of CPU from 0:00", "lag p99 up to 135ms", "but the target's p95 rose to 5.12s", "the generator's own delay"},
				[]string{"the requests queued at the target, not at the generator"}},
			[]string{"the numbers are not the target's", "do not use these figures"}},
		{"its pool leads", replay("poolbusy-host"), KindPoolExhaustion,
			&expect{Critical, [2]int{2, 2}, [2]int{34, 34}, []string{"DB pool exhausted: 2 of 2 connections in use from 0:02"}, nil}, nil},
		{"the same on a host 80% busy: the generator's finding follows the pool", poolQueue(1.6, 40*time.Millisecond, 300*time.Millisecond), KindGeneratorBound,
			&expect{Warning, [2]int{0, 0}, [2]int{4, 4},
				[]string{"The load generator also limited the test from 0:00", "scheduler lag p99 up to 130ms", "but the target's p95 rose to"},
				[]string{"the requests queued at the target, not at the generator"}},
			[]string{"The load generator is the bottleneck", "the numbers are not the target's", "do not use these figures"}},
		{"on a host 100% busy", poolQueue(2, 40*time.Millisecond, 300*time.Millisecond), KindHostBusy,
			&expect{Warning, [2]int{0, 0}, [2]int{4, 4}, []string{"but the target's p95 rose to"}, nil},
			[]string{"the numbers are not the target's"}},
		{"an earlier build's drops held by loadlens's CPU while the pool queued: they follow it too", heldByCPU, KindGeneratorBound,
			&expect{Warning, [2]int{0, 0}, [2]int{19, 19}, []string{"The load generator also limited the test from 0:00", "the pool held at 300 by loadlens's own CPU", "but the target's p95 rose to"}, nil},
			[]string{"The load generator is the bottleneck", "the numbers are not the target's"}},
		{"a starved generator before a fast target on a busy host: its latencies are its lag", busyHost(2, 0), KindHostBusy,
			&expect{Critical, [2]int{5, 5}, [2]int{15, 15}, []string{"the numbers are not the target's"}, nil},
			[]string{"but the target's p95 rose to"}},
		{"lag p99 400ms beside a p95 to 6s is the target's queue still", poolQueue(1.6, 400*time.Millisecond, 300*time.Millisecond), KindGeneratorBound,
			&expect{Warning, [2]int{0, 0}, [2]int{7, 7}, []string{"scheduler lag p99 up to 400ms; but the target's p95 rose to 6.05s, 15.1× the generator's own delay"}, nil}, nil},
		{"a target that does not queue (40ms throughout) leaves the generator the bottleneck", poolQueue(1.6, 40*time.Millisecond, 0), KindGeneratorBound,
			&expect{Critical, [2]int{0, 0}, [2]int{19, 19}, []string{"The load generator is the bottleneck from 0:00", "the numbers are not the target's"}, nil},
			[]string{"but the target's p95 rose to"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fs := Diagnose(tc.in(t))
			f, found := expectKind(t, fs, tc.kind, tc.want)
			if !found {
				return
			}
			generator := tc.kind == KindGeneratorBound || tc.kind == KindHostBusy
			if follows := tc.want.severity == Warning && generator; f.FollowsTarget != follows {
				t.Errorf("FollowsTarget %v, want %v", f.FollowsTarget, follows)
			}
			if tc.want.severity == Warning || !generator {
				leadsTarget(t, fs)
			}
			text := findingText(f) + "\n" + strings.Join(f.Remedies, "\n")
			for _, bad := range tc.never {
				if strings.Contains(text, bad) {
					t.Errorf("%s finding says %q:\n%s", f.Kind, bad, text)
				}
			}
		})
	}
}

// poolQueue is the reproduction in small: 50 req/s for 20 s on a host
// busy as given (cores of 2), loadlens 0.02 cores; the scheduler 40 ms
// late (130 ms at 0:03) for the first 5 s, then by lateAfter while a
// HikariCP pool of 2 holds every request and the target's own 40 ms grow
// by grow a second from 0:05. Durations are timed from
// the intended starts: the lag is in them.
func poolQueue(hostCores float64, lateAfter, grow time.Duration) func(t *testing.T) Input {
	return func(t *testing.T) Input {
		const n = 20
		secs := make([]sec, n)
		pending, active := make([]float64, n), make([]float64, n)
		for i := range secs {
			lag, own := 40*time.Millisecond, 40*time.Millisecond
			if i == 3 {
				lag = 130 * time.Millisecond
			}
			if i >= 5 {
				lag, own = lateAfter, 40*time.Millisecond+time.Duration(i-4)*grow
			}
			secs[i] = sec{vus: int64(50 * (lag + own).Seconds()), lag: lag, reqs: []reqs{{n: 50, dur: even(lag+own, 0.5)}}}
			active[i], pending[i] = 2, max(float64(i-1)*10, 0)
		}
		labels := []string{"pool", "HikariPool-1", "role", "app"}
		set := append(hostSeries(n, hostCores, 0, 0.02),
			mk("hikaricp_connections_active", series.Gauge, pts(0, 1, active...), labels...),
			mk("hikaricp_connections_max", series.Gauge, pts(0, 1, repeat(2, n)...), labels...),
			mk("hikaricp_connections_pending", series.Gauge, pts(0, 1, pending...), labels...))
		return Input{Run: build(t, layout(modelArrivalRate, "GET /apps/{id}/reviews"), secs), Series: set}
	}
}

// heldByCPU is poolQueue on a host 80 % busy with drops from 0:08, the VU
// pool held at 300 by loadlens's CPU: an earlier build's engine read a
// scheduler behind on a busy host as loadlens short of CPU whatever the
// target's latency.
func heldByCPU(t *testing.T) Input {
	in := poolQueue(1.6, 40*time.Millisecond, 300*time.Millisecond)(t)
	secs := make([]sec, 20)
	for i := range secs {
		lag, own := 40*time.Millisecond, 40*time.Millisecond
		if i == 3 {
			lag = 130 * time.Millisecond
		}
		if i >= 5 {
			own += time.Duration(i-4) * 300 * time.Millisecond
		}
		secs[i] = sec{vus: 300, lag: lag, reqs: []reqs{{n: 50, dur: even(lag+own, 0.5)}}}
		if i >= 8 {
			secs[i].dropped = 40
		}
	}
	in.Run = build(t, layout(modelArrivalRate, "GET /apps/{id}/reviews"), secs)
	in.Series = append(in.Series, mk(GeneratorPoolHeld, series.Gauge, pts(8, 1, repeat(300, 12)...), "role", "generator", "target", "loadlens", "scenario", "s", "reason", "generator_cpu"))
	return in
}
