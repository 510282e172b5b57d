package k6

import (
	"strings"
	"testing"
)

// TestImportLoops: a counted loop becomes repeat: (for_each: over its
// numbers when the body reads the counter), a loop over a written array or
// an extracted one for_each: (path: when the body reads one field), and a
// loop that does not map is noted with its line and why; its requests are
// not sent.
func TestImportLoops(t *testing.T) {
	const head = "import http from 'k6/http';\nimport { check, sleep, group } from 'k6';\n"
	for _, c := range []struct{ name, src, want, note string }{
		{"counted", head + "export default function () {\n  for (let i = 0; i < 3; i++) {\n    http.get('http://h/a');\n    sleep(1);\n  }\n  http.get('http://h/b');\n}",
			"- repeat: 3\n        steps:\n          - get: /a\n          - think: '1s'\n      - get: /b", ""},
		{"counted to a constant, <=, += 1", head + "const N = 2;\nexport default function () {\n  for (var i = 1; i <= N; i += 1) { http.get('http://h/a'); }\n}",
			"- repeat: 2\n", ""},
		{"counter read", head + "export default function () {\n  for (let i = 0; i < 3; ++i) { http.get(`http://h/p/${i}`); }\n}",
			"- set: {i_list: '[0,1,2]'}\n      - for_each: i_list\n        as: i\n        steps:\n          - get: '/p/{{ i }}'", ""},
		{"written array", head + "const ids = ['a', 'b'];\nexport default function () {\n  for (const id of ids) { http.get('http://h/i/' + id); }\n}",
			"- set: {id_list: '[\"a\",\"b\"]'}\n      - for_each: id_list\n        as: id\n        steps:\n          - get: '/i/{{ id }}'", ""},
		{"written array of objects, one field", head + "const us = [{name: 'x', pw: 1}, {name: 'y', pw: 2}];\nexport default function () {\n  for (const u of us) { http.get(`http://h/u/${u.name}`); }\n}",
			"  as: u\n        path: '$.name'\n        steps:\n          - get: '/u/{{ u }}'", ""},
		{"array length bound", head + "const us = ['x', 'y', 'z'];\nexport default function () {\n  for (let i = 0; i < us.length; i++) { http.get('http://h/'); }\n}",
			"- repeat: 3\n", ""},
		{"extracted array", head + "export default function () {\n  const res = http.get('http://h/items');\n  const items = res.json('items');\n  for (const it of items) {\n    group('item', () => { http.get(`http://h/items/${it.id}`); });\n  }\n}",
			"- get: /items\n        extract:\n          items: {json: '$.items', default: ''}\n      # k6 visits every element of items; a for_each at most 100 (max:)\n      - for_each: items\n        as: it\n        path: '$.id'\n        steps:\n          - group: item\n            steps:\n              - get: '/items/{{ it }}'", ""},
		{"nested, without braces", head + "export default function () {\n  for (x of [1, 2]) for (y of [3]) http.get('http://h/n');\n}",
			"- repeat: 2\n        steps:\n          - repeat: 1\n            steps:\n              - get: /n", ""},
		{"nested", head + "export default function () {\n  for (let i = 0; i < 2; i++) {\n    for (const c of ['x', 'y']) { http.get('http://h/' + c); }\n  }\n}",
			"- repeat: 2\n        steps:\n          - set: {c_list: '[\"x\",\"y\"]'}\n          - for_each: c_list\n            as: c\n            steps:\n              - get: '/{{ c }}'", ""},
		{"counter read past for_each's default max", head + "export default function () {\n  for (let i = 0; i < 150; i++) { http.get(`http://h/p/${i}`); }\n}",
			"- for_each: i_list\n        as: i\n        max: 150\n", ""},
		{"stream written in a counted loop", "import grpc from 'k6/net/grpc';\nconst c = new grpc.Client();\nexport default function () {\n  c.connect('127.0.0.1:1', {plaintext: true});\n  const s = new grpc.Stream(c, 'a.B/C');\n  for (let i = 0; i < 3; i++) { s.write({n: 1}); }\n  s.end();\n}",
			"messages:\n          - {\"n\":1}\n          - {\"n\":1}\n          - {\"n\":1}\n", ""},
		{"a loop that never runs", head + "export default function () {\n  for (let i = 0; i < 0; i++) { http.get('http://h/x'); }\n  http.get('http://h/y');\n}",
			"flow:\n      - get: /y\n", ""},
		{"while", head + "export default function () {\n  http.get('http://h/');\n  let n = 0;\n  while (n < 3) { http.get('http://h/w'); n++; }\n}",
			"- get: /\n", "line 6: loop while (n < 3) { http.get('http://h/w'); n++; } (a while loop runs until a condition known only as it runs;"},
		{"count unknown", head + "export default function () {\n  http.get('http://h/');\n  for (let i = 0; i < __ENV.N; i++) { http.get('http://h/w'); }\n}",
			"- get: /\n", "line 5: loop for (let i = 0; i < __ENV.N; i++) { http.get('http://h/w'); } (its count is not a constant;"},
		{"for...in", head + "const m = {a: 1};\nexport default function () {\n  http.get('http://h/');\n  for (const k in m) { http.get('http://h/' + k); }\n}",
			"- get: /\n", "line 6: loop for (const k in m) { http.get('http://h/' + k); } (for...in visits an object's keys;"},
		{"break", head + "export default function () {\n  http.get('http://h/');\n  for (let i = 0; i < 3; i++) { const r = http.get('http://h/w'); if (r.status != 200) { break; } }\n}",
			"- get: /\n", "(its body leaves it early (break); a test's loop runs its steps whole)"},
		{"two fields", head + "const us = [{n: 'x', p: 1}];\nexport default function () {\n  http.get('http://h/');\n  for (const u of us) { http.post('http://h/login', {n: u.n, p: u.p}); }\n}",
			"- get: /\n", "(its body reads n, p of each element; a for_each gives one (path:))"},
		{"too many", head + "export default function () {\n  http.get('http://h/');\n  for (let i = 0; i < 20000; i++) { http.get('http://h/w'); }\n}",
			"- get: /\n", "(it runs 20000 times; a repeat: runs at most 10000)"},
		{"unknown array", head + "export default function () {\n  http.get('http://h/');\n  for (const x of lookup()) { http.get('http://h/w'); }\n}",
			"- get: /\n", "(its array is neither written in the script nor read from a response"},
	} {
		t.Run(c.name, func(t *testing.T) {
			tst, out := importRendered(t, c.src)
			if !strings.Contains(string(out), c.want) {
				t.Errorf("lacks %q:\n%s", c.want, out)
			}
			notes := strings.Join(tst.NotConverted, "\n")
			if c.note != "" && !strings.Contains(notes, c.note) {
				t.Errorf("not converted lacks %q:\n%s", c.note, notes)
			}
			if _, flow, _ := strings.Cut(string(out), "scenarios:"); c.note != "" && strings.Contains(flow, "/w") {
				t.Errorf("a loop not converted sent its requests:\n%s", out)
			}
		})
	}
}

// TestImportLoopRefused: a script whose only requests are in a loop that
// does not map is refused naming the loop and its line.
func TestImportLoopRefused(t *testing.T) {
	src := "import http from 'k6/http';\nexport default function () {\n  while (true) { http.get('http://h/'); }\n}"
	_, err := Import([]byte(src), "s.js")
	want := "the default function sends no request the import converts; not converted:\n  line 3: loop while (true)"
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("%v, want %q", err, want)
	}
}

// TestImportOddLoops: loops of other shapes are noted, never converted
// wrongly nor a panic.
func TestImportOddLoops(t *testing.T) {
	for _, loop := range []string{
		"for (;;) { http.get('http://h/w'); }",
		"for (const [a, b] of [[1, 2]]) { http.get('http://h/w'); }",
		"for (let i = 0, j = 0; i < 2; i++) { http.get('http://h/w'); }",
		"for (let i = 0; i < 2; i--) { http.get('http://h/w'); }",
		"for (let i = 0; i > -2; i++) { http.get('http://h/w'); }",
		"for (let i = 0.5; i < 2; i++) { http.get('http://h/w'); }",
		"do { http.get('http://h/w'); } while (false);",
		"for (const x of [1, 2]) { continue; }",
	} {
		t.Run(loop, func(t *testing.T) {
			src := "import http from 'k6/http';\nexport default async function () {\n  http.get('http://h/');\n  " + loop + "\n}"
			tst, out := importRendered(t, src)
			if _, flow, _ := strings.Cut(string(out), "scenarios:"); strings.Contains(flow, "/w") {
				t.Errorf("a loop not converted sent its requests:\n%s", out)
			}
			if notes := strings.Join(tst.NotConverted, "\n"); !strings.Contains(notes, "line 4: loop ") {
				t.Errorf("the loop is not noted:\n%s", notes)
			}
		})
	}
}
