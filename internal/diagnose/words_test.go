package diagnose

import (
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/sample"
)

// TestFindingsPointTheRightWay pins the wording an outside trial found
// misleading: a TLS handshake nobody answered read as a refused
// certificate, and a body check that failed because max_body cut the
// bodies read as a race in the target.
func TestFindingsPointTheRightWay(t *testing.T) {
	cases := []struct {
		name  string
		in    func(t *testing.T) Input
		kind  string
		want  *expect
		never []string // in the title, evidence or remedies
	}{
		{"a handshake the server never answered is a timeout, not a certificate", tlsFailures("TLS handshake unfinished at the request timeout (1s)"),
			KindAllFailed, &expect{Critical, [2]int{0, 0}, [2]int{2, 2},
				[]string{"timed out in the TLS handshake", "never answered the handshake"}, nil},
			[]string{"certificate, name or protocol", "certificate's"}},
		{"a rejected certificate stays a certificate fault", tlsFailures("tls: failed to verify certificate: x509: certificate signed by unknown authority"),
			KindAllFailed, &expect{Critical, [2]int{0, 0}, [2]int{2, 2}, []string{"the TLS handshake failed (certificate, name or protocol)"}, nil},
			[]string{"timed out"}},
		{"a body check failing on cut bodies names max_body", bodyCheck(3), KindCheckFailed,
			&expect{Warning, [2]int{0, 0}, [2]int{2, 2}, []string{`Check failed: ‘body contains "END"’ failed 3 of 3 times`,
				"likely because 3 response bodies were longer than max_body"}, []string{"3 response bodies were longer than max_body while the check failed"}},
			[]string{"race", `"body contains "END""`}},
		{"a body check failing on whole bodies stays the fault", bodyCheck(0), KindCheckFailed,
			&expect{Critical, [2]int{0, 0}, [2]int{2, 2}, []string{`Check failed: ‘body contains "END"’`}, nil},
			[]string{"max_body"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fs := Diagnose(tc.in(t))
			f, found := findKind(fs, tc.kind)
			if !found {
				t.Fatalf("no %s finding; got %s", tc.kind, titles(fs))
			}
			checkFinding(t, f, tc.want)
			text := title(f) + "\n" + strings.Join(f.Remedies, "\n")
			for _, e := range f.Evidence {
				text += "\n" + evidenceText(f, e)
			}
			for _, bad := range tc.never {
				if strings.Contains(text, bad) {
					t.Errorf("the finding says %q:\n%s", bad, text)
				}
			}
		})
	}
}

// tlsFailures is 3 s of requests that all fail in the TLS handshake with msg.
func tlsFailures(msg string) func(t *testing.T) Input {
	return func(t *testing.T) Input {
		secs := steady(3, 2, 2, time.Second)
		for i := range secs {
			secs[i].reqs[0].fail, secs[i].reqs[0].kind, secs[i].reqs[0].msg = 2, sample.TLS, msg
		}
		return Input{Run: build(t, layout(modelVUs, "GET /x"), secs)}
	}
}

// bodyCheck is 3 s of one request a second whose check `body contains
// "END"` fails, with cut of those bodies longer than max_body each second.
func bodyCheck(cut int) func(t *testing.T) Input {
	return func(t *testing.T) Input {
		l := layout(modelVUs, "GET /x")
		l.Checks = []sample.CheckInfo{{Scenario: 0, Endpoint: 0, Name: `body contains "END"`}}
		secs := steady(3, 1, 1, 2*time.Millisecond)
		for i := range secs {
			secs[i].reqs[0].cut = cut
			secs[i].checks = [][2]int64{{0, 1}}
		}
		return Input{Run: build(t, l, secs)}
	}
}
