package k6

import (
	"strings"
	"testing"
)

// TestImportEncodingAndOptions: what a k6 script computes from text it
// writes (k6/encoding's base64, a URL's user:pass@) is sent as k6 sends
// it, the options besides the load that change what is sent are kept or
// named with their line, and a note's line is the call's own when two
// calls start alike. Each row is one construct; want is in the test,
// note among what was not converted ("-" before it: must not be).
func TestImportEncodingAndOptions(t *testing.T) {
	const head = "import http from 'k6/http';\nimport encoding from 'k6/encoding';\n"
	for _, c := range []struct{ name, src, want, note string }{
		{"b64encode of written text", head + "export default function () {\n  http.get('http://h/a', {headers: {Authorization: 'Basic ' + encoding.b64encode('user:passwd')}});\n}",
			"Authorization: 'Basic dXNlcjpwYXNzd2Q='", "-k6/encoding"},
		{"b64encode imported by name, rawurl, of JSON", "import http from 'k6/http';\nimport { b64encode } from 'k6/encoding';\nexport default function () {\n  http.get('http://h/t/' + b64encode(JSON.stringify({typ: 'JWT'}), 'rawurl'));\n}",
			"- get: /t/eyJ0eXAiOiJKV1QifQ\n", ""},
		{"b64decode as text", head + "export default function () { http.post('http://h/d', encoding.b64decode('aGVsbG8gd29ybGQ=', null, 's')); }",
			"body: 'hello world'", ""},
		{"b64encode of an env is named, not guessed", head + "export default function () {\n  http.get('http://h/a', {headers: {X: encoding.b64encode(__ENV.TOKEN)}});\n}",
			"- get: /a\n", "line 4: encoding.b64encode(__ENV.TOKEN) (base64 of a value known only at run time"},
		{"b64decode to an ArrayBuffer is named", head + "export default function () { http.post('http://h/d', encoding.b64decode('aGk=')); }",
			"- post: /d", "line 3: encoding.b64decode('aGk=') (only the text"},
		{"a URL's credentials become the Basic header k6 sends", "import http from 'k6/http';\nexport default function () {\n  http.get('http://us%40r:p%3Ass@h/a');\n  http.get('http://h/b');\n}",
			"- get: /a\n        headers:\n          Authorization: 'Basic dXNAcjpwOnNz'\n      - get: /b", ""},
		{"a header the request sets wins over the URL's", "import http from 'k6/http';\nexport default function () { http.get('http://u:p@h/a', {headers: {Authorization: 'Bearer x'}}); }",
			"- get: /a\n        headers:\n          Authorization: 'Bearer x'\n", ""},
		{"digest auth never sends the password as Basic", "import http from 'k6/http';\nexport default function () {\n  http.get('http://u:p@h/d', {auth: 'digest'});\n  http.get('http://h/e');\n}",
			"- get: /d\n      - get: /e", "line 3: auth \"digest\" of http.get("},
		{"a GJSON index is a JSON path's index", "import http from 'k6/http';\nimport { check } from 'k6';\nexport default function () {\n  const r = http.get('http://h/items');\n  check(r, {'first': (x) => x.json('items.0.id') === 1});\n  http.get(`http://h/items/${r.json('items.1.id')}`);\n}",
			`{name: "first", json: "$.items[0].id", eq: 1}`, "-first"},
		{"a GJSON query is named, not guessed", "import http from 'k6/http';\nimport { check } from 'k6';\nexport default function () {\n  const r = http.get('http://h/items');\n  check(r, {'three': (x) => x.json('items.#') === 3});\n}",
			"- get: /items\n", `line 5: check "three"`},
		{"options that change what is sent", "import http from 'k6/http';\nexport const options = {\n  insecureSkipTLSVerify: true,\n  maxRedirects: 3,\n  userAgent: 'me/1',\n  hosts: {'h': '127.0.0.1'},\n};\nexport default function () { http.get('https://h/', {redirects: 0}); }",
			"insecure_skip_tls_verify: true\nredirects: 3\nheaders:\n  User-Agent: me/1\n", "line 6: option hosts"},
		{"a request's own redirects", "import http from 'k6/http';\nexport default function () { http.get('https://h/', {redirects: 0}); }",
			"- get: /\n        redirects: 0\n", "-redirects"},
		{"the line of the second of two calls that start alike", "import http from 'k6/http';\nexport default function () {\n  http.get('http://u:p@h/basic-auth/u/p');\n  http.get('http://h/basic-auth/u/p', {headers: {X: someValue()}});\n}",
			"- get: /basic-auth/u/p", "line 4: header X of http.get("},
	} {
		t.Run(c.name, func(t *testing.T) {
			tst, out := importRendered(t, c.src)
			if !strings.Contains(string(out), c.want) {
				t.Errorf("lacks %q:\n%s", c.want, out)
			}
			notes := strings.Join(tst.NotConverted, "\n")
			if absent, ok := strings.CutPrefix(c.note, "-"); ok {
				if strings.Contains(notes, absent) {
					t.Errorf("not converted has %q:\n%s", absent, notes)
				}
			} else if c.note != "" && !strings.Contains(notes, c.note) {
				t.Errorf("not converted lacks %q:\n%s", c.note, notes)
			}
			if strings.Contains(string(out), "u:p@") || strings.Contains(string(out), "us%40r") {
				t.Errorf("a URL's credentials in the test:\n%s", out)
			}
		})
	}
}
