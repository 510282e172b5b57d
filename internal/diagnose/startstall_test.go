package diagnose

import "testing"

// TestStartStall replays four closed-model runs against nginx on a quiet
// 2-core host (loadlens pinned to one core, nginx to the other, GET then
// 1 s think, 30 s): two of 10,000 VUs whose start left loadlens's
// goroutines waiting 42 and 46 ms (scheduling latency p99) in second 0,
// with p99 57 and 70 ms over the run against 1–3 ms in each later second,
// both read "no bottleneck found"; one of 10,000 VUs whose start kept up
// (p99 2.25 ms) and one of 5,000 VUs, which must stay silent.
func TestStartStall(t *testing.T) {
	stalled := []string{"The load generator fell behind from 0:00 to 0:01", "for a CPU, and those seconds set the run's p99", "the tail is the generator's, not the target's"}
	replayTrials(t, []replayCase{
		{"10,000 VUs, a start the generator fell behind in (a)", "gen10k-startstall-a", KindGeneratorBound,
			&expect{Warning, [2]int{0, 0}, [2]int{1, 1}, stalled, []string{"requests (", "afterwards p95"}}, nil},
		{"10,000 VUs, a start the generator fell behind in (b)", "gen10k-startstall-b", KindGeneratorBound,
			&expect{Warning, [2]int{0, 0}, [2]int{1, 1}, stalled, nil}, nil},
		{"10,000 VUs, a start that kept up", "gen10k-quietstart", KindGeneratorBound, nil, nil},
		{"5,000 VUs on a quiet host", "gen5k-quiet", KindGeneratorBound, nil, nil},
		{"5,000 VUs on a quiet host: no drift", "gen5k-quiet", KindLatencyDrift, nil, nil},
	})
}
