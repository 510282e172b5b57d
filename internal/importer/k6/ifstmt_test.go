package k6

import (
	"strings"
	"testing"
)

// TestImportIfOnStatus: if (res.status === N) {...} else {...} on the last
// request's response becomes an if: {status: N} step (unless: for !==, or
// when only the else branch sends anything), its branches' URLs under the
// base URL like any other; one that a test could not run as k6 does (an
// earlier response, a check under a condition, a branch holding what does
// not convert) is named with its line and sends nothing of its branches.
// want is in the test ("!" before it: must not be), note among what was
// not converted.
func TestImportIfOnStatus(t *testing.T) {
	const head = "import http from 'k6/http';\nimport { check, sleep } from 'k6';\nexport default function () {\n  const res = http.get('http://h/a');\n"
	for _, c := range []struct{ name, src, want, note string }{
		{"if and else", head + "  if (res.status === 200) { http.get('http://h/b'); } else { http.get('http://h/c'); sleep(1); }\n}",
			"- if: {status: 200}\n        then:\n          - get: /b\n        else:\n          - get: /c\n          - think: '1s'\n", ""},
		{"not equal", head + "  if (res.status !== 200) { http.get('http://h/retry'); }\n}",
			"- unless: {status: 200}\n        then:\n          - get: /retry\n", ""},
		{"only the else sends", head + "  if (res.status === 201) { console.log('ok'); } else { http.get('http://h/help'); }\n}",
			"- unless: {status: 201}\n        then:\n          - get: /help\n", ""},
		{"logging alone sends nothing", head + "  if (res.status !== 200) { console.log('status ' + res.status); }\n  http.get('http://h/z');\n}",
			"      - get: /a\n      - get: /z\n", "!statement if"},
		{"an earlier response", head + "  const b = http.get('http://h/b');\n  if (res.status === 200) { http.get('http://h/x'); }\n}",
			"!get: /x", "line 6: statement if (res.status === 200)"},
		{"a check under the condition", head + "  if (res.status === 200) { check(res, {'ok': (r) => r.body.includes('x')}); http.get('http://h/x'); }\n}",
			"!body_contains", "line 5: statement if (res.status === 200) { check(res, {ok: (r) => { return r.body.in... (a check or extraction of an earlier response under a condition"},
		{"a branch that does not convert whole", head + "  if (res.status === 200) { const j = JSON.parse(res.body); http.post('http://h/x', j.data.id); }\n}",
			"!post: /x", "line 5: statement if (res.status === 200) { const j = JSON.parse(res.body); http.post... (a branch holds what the import does not convert"},
	} {
		t.Run(c.name, func(t *testing.T) {
			tst, out := importRendered(t, c.src)
			if absent, ok := strings.CutPrefix(c.want, "!"); ok {
				if strings.Contains(string(out), absent) {
					t.Errorf("has %q:\n%s", absent, out)
				}
			} else if !strings.Contains(string(out), c.want) {
				t.Errorf("lacks %q:\n%s", c.want, out)
			}
			notes := strings.Join(tst.NotConverted, "\n")
			if absent, ok := strings.CutPrefix(c.note, "!"); ok {
				if strings.Contains(notes, absent) {
					t.Errorf("not converted has %q:\n%s", absent, notes)
				}
			} else if c.note != "" && !strings.Contains(notes, c.note) {
				t.Errorf("not converted lacks %q:\n%s", c.note, notes)
			}
		})
	}
}
