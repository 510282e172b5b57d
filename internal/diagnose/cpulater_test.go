package diagnose

import (
	"testing"
	"time"
)

// stallAt is 40 seconds of an open model offered 100 req/s to a JVM pinned
// to one core, full (0.97) from 0:10 with the latency flat, whose
// completions from second at are served: a pause that drains (30, then
// 100, then 170 a second) or a queue that stays (80 a second to the end).
func stallAt(at int, served func(t int) int) func(t *testing.T) Input {
	return func(t *testing.T) Input {
		secs := make([]sec, 40)
		for s := range secs {
			n, dur := 100, even(10*time.Millisecond, 0.3)
			if s >= at {
				n = served(s - at)
				if n != 100 {
					dur = even(300*time.Millisecond, 0.3) // the stalled requests waited
				}
			}
			secs[s] = sec{vus: 2, vusMax: 1000, offered: 100, reqs: []reqs{{n: n, dur: dur}}}
		}
		return Input{Run: build(t, layout(modelArrivalRate, "GET /render"), secs), Series: jvmPinned(0.97, 10)}
	}
}

// TestCPULaterQueueMustStay: a CPU at its limit is the load's bottleneck
// when the open model queued later in its spell and stayed queued; a
// pause that drained at once (a JIT or GC stop on a JVM near its core, CI's
// pool-ok case of the accuracy catalogue) is not the CPU's queue.
func TestCPULaterQueueMustStay(t *testing.T) {
	drained := func(i int) int { return [...]int{30, 100, 170, 100}[min(i, 3)] }
	cases := []struct {
		name string
		in   func(t *testing.T) Input
		want *expect
	}{
		{"a queue from 0:20 that stays", stallAt(20, func(int) int { return 80 }), &expect{Critical, [2]int{10, 10}, [2]int{39, 39},
			[]string{"App CPU saturated: 97% of 1 core"}, []string{"the load queued while this CPU stayed at its limit"}}},
		{"a stall at 0:20 that drained", stallAt(20, drained), nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f, found := findKind(Diagnose(tc.in(t)), KindCPUSaturation)
			if tc.want == nil {
				if found && f.Severity == Critical {
					t.Fatalf("critical: %s", title(f))
				}
				return
			}
			expectKind(t, Diagnose(tc.in(t)), KindCPUSaturation, tc.want)
		})
	}
}
