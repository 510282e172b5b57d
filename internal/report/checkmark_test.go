package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/loadlens/loadlens/internal/metrics"
)

// TestCheckNeverRanHasNoTick: a check with neither a pass nor a fail (its
// step never ran: a grpc: step whose .proto was missing) showed ✓ in the
// summary; in every rendering it is marked never ran, and the evaluated
// check beside it keeps its ✓.
func TestCheckNeverRanHasNoTick(t *testing.T) {
	in := fixture(t)
	in.Run.Checks[0] = metrics.CheckTotal{Passes: 5}
	in.Run.Checks[1] = metrics.CheckTotal{}
	render := map[string]func() []byte{
		"text": func() []byte {
			var b bytes.Buffer
			if err := WriteText(&b, in); err != nil {
				t.Fatal(err)
			}
			return b.Bytes()
		},
		"html": func() []byte {
			var b bytes.Buffer
			if err := WriteHTML(&b, in); err != nil {
				t.Fatal(err)
			}
			return b.Bytes()
		},
		"markdown": func() []byte { return Markdown(in) },
		"junit": func() []byte {
			b, err := JUnit(in)
			if err != nil {
				t.Fatal(err)
			}
			return b
		},
	}
	for _, tc := range []struct {
		format, never, passed string // the never-run check's mark and name, and the passed one's
	}{
		{"text", "– $.remaining >= 0", "✓ status is 200"},
		{"html", `<td class="mark nodata">–</td><td class="name">$.remaining &gt;= 0</td>`, `<td class="mark ok">✓</td><td class="name">status is 200</td>`},
		{"markdown", "| – | $.remaining &gt;= 0 |", "| ✅ | status is 200 |"},
		{"junit", `<skipped message="never ran: its step never reached this check" type="check">`, `name="status is 200 (browse · GET /apps/first-page)" time="0"></testcase>`},
	} {
		out := string(render[tc.format]())
		at := strings.Index(out, "remaining")
		if at < 0 || !strings.Contains(out, tc.never) || !strings.Contains(out, tc.passed) {
			t.Errorf("%s: want %q and %q:\n%s", tc.format, tc.never, tc.passed, out)
			continue
		}
		end := len(out)
		if tc.format == "junit" { // the case's own element, over lines
			end = at + strings.Index(out[at:], "</testcase>")
		} else if nl := strings.IndexByte(out[at:], '\n'); nl >= 0 {
			end = at + nl
		}
		rest := out[at:end]
		if strings.ContainsAny(rest, "✓✅") || !strings.Contains(rest, "never ran") {
			t.Errorf("%s: the never-run check reads %q: want never ran and no tick", tc.format, rest)
		}
	}
}
