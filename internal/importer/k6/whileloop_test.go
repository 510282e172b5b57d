package k6

import (
	"strings"
	"testing"
)

// TestImportWhileBreak: while (true) polling a URL until its status
// breaks the loop becomes a bounded repeat whose steps stop at that
// status; a while the import cannot bound that way is named with its
// line and why, and sends nothing of its body. want is in the test ("!"
// before it: must not be), note among what was not converted.
func TestImportWhileBreak(t *testing.T) {
	const head = "import http from 'k6/http';\nimport { sleep } from 'k6';\nexport default function () {\n"
	for _, c := range []struct{ name, src, want, note string }{
		{"break on a status", head + "  while (true) {\n    const r = http.get('http://h/job');\n    if (r.status === 200) break;\n    sleep(1);\n  }\n  http.get('http://h/result');\n}",
			"      - set: {done: ''}\n      # k6 runs while (true) until its break; a repeat at most 100 times\n      - repeat: 100\n        steps:\n          - unless: done\n            then:\n" +
				"              - get: /job\n              - if: {status: 200}\n                then:\n                  - set: {done: '1'}\n                else:\n                  - think: '1s'\n      - get: /result\n", ""},
		{"break while not a status, in a block", head + "  while (true) {\n    http.post('http://h/try');\n    const r = http.get('http://h/job');\n    if (r.status !== 202) { break; }\n  }\n}",
			"              - post: /try\n              - get: /job\n              - unless: {status: 202}\n                then:\n                  - set: {done: '1'}\n", ""},
		{"two polling loops", head + "  while (true) { const a = http.get('http://h/a'); if (a.status === 200) break; }\n  while (true) { const b = http.get('http://h/b'); if (b.status === 200) break; }\n}",
			"- set: {done_2: ''}", ""},
		{"a break on an earlier response", head + "  const r = http.get('http://h/job');\n  while (true) {\n    http.get('http://h/x');\n    if (r.status === 200) break;\n  }\n}",
			"!get: /x", "line 5: loop while (true)"},
		{"two breaks", head + "  http.get('http://h/first');\n  while (true) {\n    const r = http.get('http://h/job');\n    if (r.status === 200) break;\n    if (r.status === 500) break;\n  }\n}",
			"!repeat", "line 5: loop while (true)"},
		{"a condition other than true", head + "  let n = 0;\n  while (n < 3) { http.get('http://h/x'); n++; }\n  http.get('http://h/y');\n}",
			"!get: /x", "line 5: loop while (n < 3)"},
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
			if notes := strings.Join(tst.NotConverted, "\n"); c.note != "" && !strings.Contains(notes, c.note) {
				t.Errorf("not converted lacks %q:\n%s", c.note, notes)
			}
		})
	}
}
