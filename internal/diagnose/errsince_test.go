package diagnose

import (
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/sample"
)

// failEach sets each second's failures (5xx) from fails, in order.
func failEach(secs []sec, fails ...int) []sec {
	for i, n := range fails {
		secs[i].reqs[0].fail, secs[i].reqs[0].kind = n, sample.HTTP5xx
	}
	return secs
}

// steadyFivePercent is trial C's server: 5 % of 60 req/s failed from the
// first second, crossing 3 a second only now and then.
func steadyFivePercent(t *testing.T) Input {
	secs := failEach(openQueue(9, func(int) int { return 60 }, 120, 20*time.Millisecond), 0, 5, 2, 3, 5, 0, 5, 2, 3)
	return Input{Run: build(t, layout(modelArrivalRate, "GET /o/list"), secs)}
}

// leakAfterTwenty fails nothing for 20 s at a steady 100 req/s, then more
// each second: errors that came with time.
func leakAfterTwenty(t *testing.T) Input {
	secs := openQueue(30, func(int) int { return 100 }, 190, 20*time.Millisecond)
	for i, n := range []int{1, 2, 4, 8, 12, 16, 20, 25, 30, 35} {
		secs[20+i].reqs[0].fail, secs[20+i].reqs[0].kind = n, sample.HTTP5xx
	}
	return Input{Run: build(t, layout(modelArrivalRate, "GET /o/list"), secs)}
}

// strayBeforeErrors is steadyThenErrors with one failure in the second
// before the errors: it served the load, but not without errors.
func strayBeforeErrors(t *testing.T) Input {
	secs := openQueue(10, func(int) int { return 100 }, 190, 20*time.Millisecond)
	secs[5].reqs[0].fail, secs[5].reqs[0].kind = 1, sample.HTTP5xx
	for i := 6; i < len(secs); i++ {
		secs[i].reqs[0].fail, secs[i].reqs[0].kind = 10, sample.HTTP5xx
	}
	return Input{Run: build(t, layout(modelArrivalRate, "POST /coupons/issue"), secs)}
}

// TestErrorsFromTheStartAreNotWithTime: errors at a steady share from the
// first seconds began there, whatever second first made two in a row; a
// leak's errors after clean seconds still came with time; "without errors"
// names a second with none.
func TestErrorsFromTheStartAreNotWithTime(t *testing.T) {
	cases := []struct {
		name  string
		in    func(t *testing.T) Input
		want  *expect
		never []string
	}{
		{"steady 5% from the first second", steadyFivePercent,
			&expect{Critical, [2]int{1, 1}, [2]int{8, 8}, []string{"Errors from the start (0:01, 60 req/s offered)"}, nil},
			[]string{"served before", "come with time", "a leak"}},
		{"a leak after 20 clean seconds came with time", leakAfterTwenty,
			&expect{Critical, [2]int{21, 22}, [2]int{29, 29}, []string{"at a load served before (100 req/s offered)"}, []string{", without errors"}},
			[]string{"Errors from the start"}},
		{"a stray failure the second before: the clean second is the one named", strayBeforeErrors,
			&expect{Critical, [2]int{6, 6}, [2]int{9, 9}, []string{"Errors from 0:06 at a load served before (100 req/s offered)"},
				[]string{"the same load was served before: 100 req/s offered and 100 req/s completed at 0:04, without errors"}},
			[]string{"at 0:05, without errors"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fs := Diagnose(tc.in(t))
			if _, found := expectKind(t, fs, KindErrorsAtLoad, tc.want); !found {
				return
			}
			for _, g := range fs {
				text := findingText(g) + "\n" + strings.Join(g.Remedies, "\n")
				for _, bad := range tc.never {
					if strings.Contains(text, bad) {
						t.Errorf("%s finding says %q:\n%s", g.Kind, bad, text)
					}
				}
			}
		})
	}
}
