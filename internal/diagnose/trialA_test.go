package diagnose

import (
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/sample"
)

// TestTrialAFindingsStayFixed checks the defects outside trial A found in
// the findings: modes made of fast 503s read as a cache, and errors that
// came with time given the remedies of a load limit.
func TestTrialAFindingsStayFixed(t *testing.T) {
	cases := []struct {
		name     string
		in       func(t *testing.T) Input
		kind     string
		want     *expect
		never    []string // substrings no finding's title, evidence or remedies may hold
		remedies []string // substrings the finding's remedies must hold
	}{
		{"fast 503s beside served requests are no cache", shedding(false), KindBimodalLatency,
			&expect{Info, [2]int{0, 0}, [2]int{9, 9}, []string{"Bimodal latency on GET /search: 16% of requests at ~",
				"; 16.00% of them failed: the modes may be the failures and the successes"}, nil},
			[]string{"cache hits and misses", "raise the cache hit rate"}, []string{"read the errors finding first"}},
		{"fast 503s, the successes' own histogram unimodal: no modes", shedding(true), KindBimodalLatency, nil, nil, nil},
		{"modes among successes keep the cache guess", endpoints([]string{"GET /products/{id}"}, []reqs{{n: 200, dur: twoPeaks(2*time.Millisecond, 48*time.Millisecond, 0.6)}}),
			KindBimodalLatency, &expect{Info, [2]int{0, 0}, [2]int{9, 9}, []string{"(cache hits and misses, or a fast and a slow path?)"}, nil}, []string{"failed"}, nil},
		{"errors at a load served before get the remedies of time", steadyThenErrors, KindErrorsAtLoad,
			&expect{Critical, [2]int{6, 6}, [2]int{9, 9}, []string{"Errors from 0:06 at a load served before"}, nil},
			[]string{"start at a load level", "cache so that fewer requests need it"}, []string{"a leak", "certificate", "a deploy, restart"}},
		{"errors at a load never served keep the load-level remedies", rampPastCapacity, KindErrorsAtLoad,
			&expect{Critical, [2]int{6, 6}, [2]int{9, 9}, []string{"Errors start at 250 req/s offered"}, nil}, []string{"a leak"}, []string{"start at a load level"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fs := Diagnose(tc.in(t))
			f, found := expectKind(t, fs, tc.kind, tc.want)
			if !found {
				return
			}
			rem := strings.Join(f.Remedies, "\n")
			for _, bad := range tc.never {
				if text := findingText(f) + "\n" + rem; strings.Contains(text, bad) {
					t.Errorf("%s finding says %q:\n%s", f.Kind, bad, text)
				}
			}
			for _, w := range tc.remedies {
				if !strings.Contains(rem, w) {
					t.Errorf("%s remedies lack %q:\n%s", f.Kind, w, rem)
				}
			}
		})
	}
}

// shedding is trial A's shed service: 100 req/s of GET /search, 16 of each
// second's answered at once with a 503, the rest served in ~21 ms.
// keepExpected keeps the successes' own histogram, as a threshold on
// expected_response:true does.
func shedding(keepExpected bool) func(t *testing.T) Input {
	return func(t *testing.T) Input {
		secs := make([]sec, 10)
		for i := range secs {
			secs[i] = sec{vus: 5, reqs: []reqs{{n: 100, dur: twoPeaks(400*time.Microsecond, 21*time.Millisecond, 0.16), fail: 16, kind: sample.HTTP5xx}}}
		}
		l := layout(modelArrivalRate, "GET /search")
		l.KeepExpected = keepExpected
		return Input{Run: build(t, l, secs)}
	}
}
