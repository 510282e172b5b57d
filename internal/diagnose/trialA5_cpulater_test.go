package diagnose

import "testing"

// TestTrialA5CPULater replays outside trial A5's Node service: one event
// loop burning 4 ms a request (cpu_limit 1 given), ramped to 400/s. Its
// core filled at 0:19 while the offered rate was still under what it
// serves; the load queued from 0:24 (about 240 served, latency 240 ms →
// 3.47 s) with the core at 0.98–0.99 to the end. It read INFO "the client's
// latency did not rise with it", comparing only 0:19–0:21.
func TestTrialA5CPULater(t *testing.T) {
	replayTrials(t, []replayCase{
		{"Node's one core full on a ramp, the queue a few seconds later", "trialA5-node-lim", KindCPUSaturation,
			&expect{Critical, [2]int{19, 19}, [2]int{59, 59}, []string{"App CPU saturated: 99.6% of 1 core"},
				[]string{"offered: the load queued while this CPU stayed at its limit"}},
			[]string{"did not rise with it"}},
	})
}

// TestTrialA5NodeEventLoop replays trial A5's Node service without a
// cpu_limit label: prom-client's nodejs_ series beside its
// process_cpu_seconds_total make its limit the event loop's one core
// (one(KEY)). It ran at 0.98–0.99 cores for 35 s while its throughput
// plateaued and read no CPU finding; the same service at 70 % of that
// stays silent.
func TestTrialA5NodeEventLoop(t *testing.T) {
	replayTrials(t, []replayCase{
		{"Node at its one core, no cpu_limit given", "trialA5-node-nolimit", KindCPUSaturation,
			&expect{Critical, [2]int{18, 18}, [2]int{59, 59}, []string{"App CPU saturated: 100% of 1 core (process_cpu_seconds_total, role=app, target=node-app)"}, nil}, nil},
		{"Node at 70 %: healthy", "trialA5-node70", KindCPUSaturation, nil, nil},
	})
}
