package diagnose

import (
	"strings"
	"testing"
	"time"
)

// TestTrialA4ErrorLevel replays trial A4's case 2 (a service shedding past
// 8 requests in flight, ramped 200 → 1,200 req/s on a busy host): the level
// named is the one from which errors persist, not a lone earlier second
// whose arrivals a stall of the generator bunched.
func TestTrialA4ErrorLevel(t *testing.T) {
	replayTrials(t, []replayCase{
		{"ramp 1: errors persist from 610 req/s; 270, 450, 510 and 550 were isolated", "trialA4-case2-ramp1", KindErrorsAtLoad,
			&expect{Critical, [2]int{20, 20}, [2]int{49, 49}, []string{"Errors start at 610 req/s offered (0:20)"},
				[]string{"isolated failing seconds before 0:20", "0:03 at 270 req/s offered (24 failed; its arrivals came late, bunched: scheduler lag p99 46.2ms)"}},
			[]string{"Errors start at 270", "at 450 req/s offered (0:12)"}},
		{"ramp 2: errors persist from 510 req/s; 370 was isolated", "trialA4-case2-ramp2", KindErrorsAtLoad,
			&expect{Critical, [2]int{15, 15}, [2]int{49, 49}, []string{"Errors start at 510 req/s offered (0:15)"},
				[]string{"isolated failing seconds before 0:15", "0:08 at 370 req/s offered (7 failed)"}},
			[]string{"Errors start at 370"}},
	})
}

// rampWithBlip ramps 100 → 400 req/s over 16 s against a limit of 300
// req/s (5xx past it, from 0:11), with 20 requests failed in one second
// (blip) whose iterations started lag late.
func rampWithBlip(blip int, lag time.Duration) func(t *testing.T) Input {
	return func(t *testing.T) Input {
		secs := openQueue(16, func(s int) int { return 100 + 20*s }, 100000, 10*time.Millisecond)
		secs[blip].lag = lag
		fails := make([]int, len(secs))
		fails[blip] = 20
		for i := range secs {
			if over := secs[i].offered - 300; over > 0 {
				fails[i] = over
			}
		}
		return Input{Run: build(t, layout(modelArrivalRate, "GET /work"), failEach(secs, fails...))}
	}
}

// TestErrorLevelPersists: a lone failing second that clean seconds follow
// is no error level: the level is where the errors persisted from, and the
// lone second is named as isolated, as bunched only when its lag says so.
func TestErrorLevelPersists(t *testing.T) {
	cases := []struct {
		name  string
		in    func(t *testing.T) Input
		want  *expect
		never []string
	}{
		{"a blip at 140 req/s with a 50ms stall, errors from 320 req/s", rampWithBlip(2, 50*time.Millisecond),
			&expect{Critical, [2]int{11, 11}, [2]int{15, 15}, []string{"Errors start at 320 req/s offered (0:11)"},
				[]string{"0:02 at 140 req/s offered (20 failed; its arrivals came late, bunched: scheduler lag p99 50.0ms)"}},
			[]string{"Errors start at 140"}},
		{"a blip without lag is isolated, not bunched", rampWithBlip(2, 0),
			&expect{Critical, [2]int{11, 11}, [2]int{15, 15}, []string{"Errors start at 320 req/s offered (0:11)"},
				[]string{"0:02 at 140 req/s offered (20 failed)"}},
			[]string{"bunched"}},
		{"two clean seconds after a failing one: isolated", rampWithBlip(8, 0),
			&expect{Critical, [2]int{11, 11}, [2]int{15, 15}, []string{"Errors start at 320 req/s offered (0:11)"},
				[]string{"isolated failing seconds before 0:11", "0:08 at 260 req/s offered (20 failed)"}},
			[]string{"Errors start at 260"}},
		{"one clean second after a failing one: the errors persisted from it", rampWithBlip(9, 0),
			&expect{Critical, [2]int{9, 9}, [2]int{15, 15}, []string{"Errors start at 280 req/s offered (0:09)"}, nil},
			[]string{"isolated"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fs := Diagnose(tc.in(t))
			if _, found := expectKind(t, fs, KindErrorsAtLoad, tc.want); !found {
				return
			}
			for _, g := range fs {
				for _, bad := range tc.never {
					if text := findingText(g); strings.Contains(text, bad) {
						t.Errorf("%s finding says %q:\n%s", g.Kind, bad, text)
					}
				}
			}
		})
	}
}
