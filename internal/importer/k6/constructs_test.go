package k6

import (
	"os"
	"strings"
	"testing"

	"github.com/loadlens/loadlens/internal/importer"
)

// TestImportSetupData: setup() becomes the test's setup, what it returns
// is read by default(data) and teardown(data) as the setup's variables, a
// helper function the default calls is converted in place, and no name
// or note shows the URLs' credentials.
func TestImportSetupData(t *testing.T) {
	src, err := os.ReadFile("../testdata/k6/setup-data.js")
	if err != nil {
		t.Fatal(err)
	}
	tst, err := Import(src, "setup-data.js")
	if err != nil {
		t.Fatal(err)
	}
	out, err := importer.Render(tst, "t.yaml")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, want := range []string{
		"setup:\n  - post: /login\n", "extract:\n      token: {json: '$.token', default: ''}",
		"- get: '/items?page={{ iteration }}&vu={{ vu }}'", "Authorization: 'Bearer {{ token }}'",
		"- think: '1s..3s'", `{name: "logged in (1 of 2)", status: 200}`, `{name: "logged in (2 of 2)", json: "$.token", exists: true}`,
		"teardown:\n  - delete: '/sessions/{{ token }}'",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("lacks %q:\n%s", want, out)
		}
	}
	for _, line := range strings.Split(string(out), "\n") {
		if strings.Contains(line, "secret") && !strings.HasPrefix(line, "base_url:") {
			t.Errorf("a credential outside base_url (sent as Basic auth): %s", line)
		}
	}
}

func TestImportConstructs(t *testing.T) {
	const head = "import http from 'k6/http';\nimport { check, sleep, group } from 'k6';\n"
	for _, c := range []struct{ name, src, want, note string }{
		{"helper with a return", head + "function login(u) { return http.post('http://h/login', {user: u}); }\nexport default function () {\n  const res = login('a');\n  check(res, {'in': (r) => r.status === 200});\n}",
			"- post: /login\n        form:\n          user: a\n        check:\n          - {name: \"in\", status: 200}", ""},
		{"group with a function reference", head + "function browse() { http.get('http://h/b'); }\nexport default function () { group('b', browse); }",
			"- group: b\n        steps:\n          - get: /b", ""},
		{"arrow helper", head + "const hit = (p) => http.get(`http://h/${p}`);\nexport default function () { hit('x'); hit('y'); }",
			"- get: /x\n      - get: /y", ""},
		{"batch as an object", head + "export default function () {\n  const r = http.batch({a: 'http://h/a', b: ['POST', 'http://h/b', 'x']});\n  check(r.b, {'b ok': (x) => x.status === 201});\n}",
			"- get: /a\n      - post: /b\n        body: x\n        check:\n          - {name: \"b ok\", status: 201}", "line 4: http.batch's requests are sent one after another"},
		{"sleep scaled", head + "export default function () { http.get('http://h/'); sleep(10 * Math.random()); sleep((Math.random() * 4 + 1) / 2); }",
			"- think: '0s..10s'\n      - think: '0.5s..2.5s'", ""},
		{"__ENV and __VU", head + "const B = __ENV.B || 'http://h';\nexport default function () { http.get(`${B}/u/${__VU}`); }",
			"- get: '/u/{{ vu }}'", ""},
		{"recursion is bounded", head + "function f() { http.get('http://h/'); f(); }\nexport default function () { f(); }",
			"- get: /", "the call of f nests more than 8 functions deep"},
		{"a Redis set setup() fills", "import http from 'k6/http';\nimport redis from 'k6/experimental/redis';\nconst r = new redis.Client('redis://127.0.0.1:6379');\nconst ids = new Array('a', 'b');\n" +
			"export async function setup() { await r.sadd('ids', ...ids, 'c'); }\nexport default async function () {\n  const id = await r.srandmember('ids');\n  http.get(`http://h/x/${id}`);\n  await r.set('k', 1);\n}",
			"- get: '/x/{{ pick(\"a\", \"b\", \"c\") }}'", "line 9: r.set('k', 1): a Redis command (loadlens sends HTTP, gRPC and WebSocket load, not Redis's)"},
		{"a sleep on an unknown value", head + "export default function () { http.get('http://h/'); sleep(__ENV.T); }",
			"- get: /", "line 3: sleep: sleep(__ENV.T)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			tst, out := importRendered(t, c.src)
			if !strings.Contains(string(out), c.want) {
				t.Errorf("lacks %q:\n%s", c.want, out)
			}
			if notes := strings.Join(tst.NotConverted, "\n"); c.note != "" && !strings.Contains(notes, c.note) {
				t.Errorf("not converted lacks %q:\n%s", c.note, notes)
			}
		})
	}
}

// TestImportRefusalsSayWhy: a script is refused naming what stops it,
// never "no default function" of one that has one.
func TestImportRefusalsSayWhy(t *testing.T) {
	for _, c := range []struct{ name, src, want string }{
		{"redis", "import redis from 'k6/experimental/redis';\nexport default function () {}", "it does not import k6/http, only k6/experimental/redis (line 1)"},
		{"a Redis set filled by the scenario", "import http from 'k6/http';\nimport redis from 'k6/experimental/redis';\nconst r = new redis.Client('redis://127.0.0.1:6379');\n" +
			"export default async function () {\n  await r.sadd('ids', 'a');\n  const id = await r.srandmember('ids');\n  http.get(`http://h/x/${id}`);\n}",
			"line 5: r.sadd('ids', 'a'): a Redis command (loadlens sends HTTP, gRPC and WebSocket load, not Redis's)"},
		{"no HTTP and no default", "import crypto from 'k6/crypto';\nexport function f() { crypto.sha1('x'); }", "only k6/crypto (line 1); it has no default function; loadlens"},
		{"no HTTP, calls named from the default function's line on", "// http.get(url) in a comment\nexport default function () {\n  console.log('x');\n  // console.log shown\n  helper(1);\n}\nfunction helper() {}",
			"it imports no module, k6/http included; its default function runs console.log (line 3), helper (line 5); loadlens"},
		{"gRPC without a call", "import grpc from 'k6/net/grpc';\nexport default function () {}", "the default function sends no request the import converts"},
		{"a default without requests", "import http from 'k6/http';\nexport default function () {\n  const u = someLookup();\n  http.get(u);\n}",
			"the default function sends no request the import converts; not converted:\n  line 4: a request whose URL or method the import cannot work out: http.get(u)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Import([]byte(c.src), "s.js")
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%v, want %q", err, c.want)
			}
		})
	}
}
