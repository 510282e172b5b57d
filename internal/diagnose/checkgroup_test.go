package diagnose

import (
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/sample"
)

// TestChecksOnFailedRequestsAreOneFinding: checks that failed only because
// their requests failed (refused, timed out: the check saw no answer) share
// one cause, so they are one finding naming each check and its counts;
// before, five such checks gave five near-identical INFO findings. A check
// that failed on answers keeps its own finding, and one check alone on
// failed requests keeps its words.
func TestChecksOnFailedRequestsAreOneFinding(t *testing.T) {
	cases := []struct {
		name     string
		in       func(*testing.T) Input
		findings int      // check-failed findings
		want     []string // in their titles and evidence
		never    []string
	}{
		{"five checks on refused and timed-out requests, one on answers", checksOnFailedRequests(5), 2,
			[]string{`Checks failed because the requests failed: "cart has items", "price is positive", "stock is shown" and others failed from 0:03 to 0:07, in no second more often than their requests failed`,
				`"cart has items" failed 5 of 80 times on GET /cart (scenario s): 5 requests of GET /cart failed from 0:03 to 0:07`,
				`"order has id" failed 25 of 80 times on GET /order (scenario s): 25 requests of GET /order failed from 0:03 to 0:07`,
				`"user is named" failed 20 of 80 times on GET /user`,
				`Check failed: "never more coupons than available" failed 2 of 80 times from 0:05 on GET /coupons`},
			[]string{"Check failed because the request failed"}},
		{"two checks name both in the title", checksOnFailedRequests(2), 2,
			[]string{`Checks failed because the requests failed: "cart has items" and "price is positive" failed from 0:03 to 0:07`},
			[]string{"Check failed because the request failed", "and others"}},
		{"one check on refused requests keeps its own finding", checksOnFailedRequests(1), 2,
			[]string{`Check failed because the request failed: "cart has items" failed 5 of 80 times from 0:03 on GET /cart`},
			[]string{"Checks failed because"}},
		{"gRPC checks on failed calls say calls", asProtocol("grpc", checksOnFailedRequests(3)), 2,
			[]string{"Checks failed because the calls failed:", "in no second more often than their calls failed", "15 calls of GET /stock failed"},
			[]string{"request"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var text []string
			for _, f := range Diagnose(tc.in(t)) {
				if f.Kind == KindCheckFailed {
					text = append(text, findingText(f)+"\n"+strings.Join(f.Remedies, "\n"))
				}
			}
			all := strings.Join(text, "\n\n")
			if len(text) != tc.findings {
				t.Errorf("%d check-failed findings, want %d:\n%s", len(text), tc.findings, all)
			}
			for _, w := range tc.want {
				if !strings.Contains(all, w) {
					t.Errorf("lacks %q:\n%s", w, all)
				}
			}
			for _, n := range tc.never {
				if strings.Contains(all, n) {
					t.Errorf("says %q:\n%s", n, all)
				}
			}
		})
	}
}

// checksOnFailedRequests is n GETs of 10 a second for 8 s, each with a
// check; from 0:03 the i-th one's first i+1 requests a second fail
// (refused, the last two timed out) and its check fails on each of them.
// A sixth GET's check of what must hold fails on 1 good answer a second
// at 0:05 and 0:06.
func checksOnFailedRequests(n int) func(*testing.T) Input {
	return func(t *testing.T) Input {
		names := []string{"cart", "price", "stock", "user", "order"}[:n]
		checks := []string{"cart has items", "price is positive", "stock is shown", "user is named", "order has id"}
		l := layout(modelArrivalRate)
		for i, nm := range append(names, "coupons") {
			l.Endpoints = append(l.Endpoints, sample.EndpointInfo{Scenario: 0, Name: "GET /" + nm, Method: "GET"})
			ck := "never more coupons than available"
			if i < n {
				ck = checks[i]
			}
			l.Checks = append(l.Checks, sample.CheckInfo{Scenario: 0, Endpoint: int32(i), Name: ck})
		}
		secs := make([]sec, 8)
		for s := range secs {
			secs[s].vus = 4
			for i := range n + 1 {
				r, fails := reqs{ep: int32(i), n: 10, dur: even(10*time.Millisecond, 0.3)}, int64(0)
				switch {
				case i < n && s >= 3:
					r.fail, r.kind, fails = i+1, sample.ConnRefused, int64(i+1)
					if i >= 3 {
						r.kind = sample.Timeout
					}
				case i == n && (s == 5 || s == 6):
					fails = 1
				}
				secs[s].reqs = append(secs[s].reqs, r)
				secs[s].checks = append(secs[s].checks, [2]int64{10 - fails, fails})
			}
		}
		return Input{Run: build(t, l, secs)}
	}
}
