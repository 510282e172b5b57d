package k6

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loadlens/loadlens/internal/importer"
)

func TestImportSamples(t *testing.T) {
	for _, c := range []struct {
		file         string
		want         []string
		notConverted []string
	}{
		{"stages.js", []string{"start_vus: 1", "- {duration: '1m30s', target: 10}", `'p(95)<200'`, `base_url: '{{ env("BASE_URL", "https://quickpizza.grafana.com") }}'`,
			`- {name: "status was 200", status: 200}`, "- think: '1s'"}, nil},
		{"scenarios.js", []string{"model: arrival-rate", "rate: 30", "max_vus: 100", "start_time: '10s'", "graceful_ramp_down: '5s'",
			"'http_req_duration{scenario:browse}'", "abort_on_fail: true", "delay_abort_eval: '10s'",
			`get: '/public/crocodiles/{{ randInt(1, 8) }}/'`, "name: PublicCrocs", `{name: "croc has a name", json: "$.name", exists: true}`,
			`{name: "has the news", body_contains: "News"}`, "- think: '1s..3s'", `'http_req_duration{name:"PublicCrocs"}'`},
			nil},
		{"api-crud.js", []string{"vus: 5", "duration: '30s'", `base_url: '{{ env("BASE_URL", "https://test-api.k6.io") }}'`,
			`body: '{"username":"TestUser","password":"SuperCroc2020"}'`, "access: {json: '$.access', default: ''}", "Authorization: 'Bearer {{ access }}'",
			"crocId: {json: '$.id', default: ''}", "get: '/my/crocodiles/{{ crocId }}/'", `"Croc {{ vu }}-{{ iteration }}"`,
			`{name: "same name", json: "$.sex", eq: "M"}`, "- group: 'create and read a crocodile'\n        steps:\n          - post: /my/crocodiles/", "- think: '0s..2s'"},
			[]string{"createTime.add(created.timings.duration) (a response's timings are not a value", "http.batch"}},
	} {
		t.Run(c.file, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join("../testdata/k6", c.file))
			if err != nil {
				t.Fatal(err)
			}
			tst, err := Import(src, c.file)
			if err != nil {
				t.Fatal(err)
			}
			out, err := importer.Render(tst, "t.yaml")
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			for _, w := range c.want {
				if !strings.Contains(string(out), w) {
					t.Errorf("lacks %q:\n%s", w, out)
				}
			}
			notes := strings.Join(tst.NotConverted, "\n")
			for _, w := range c.notConverted {
				if !strings.Contains(notes, w) {
					t.Errorf("not converted lacks %q:\n%s", w, notes)
				}
			}
		})
	}
}

func TestImportScripts(t *testing.T) {
	for _, c := range []struct{ name, src, want, err string }{
		{"no options: one iteration", "import http from 'k6/http';\nexport default function () { http.get('http://h/x'); }",
			"model: iterations", ""},
		{"iterations", "import http from 'k6/http';\nexport const options = {vus: 2, iterations: 10};\nexport default () => { http.del('http://h/x'); }",
			"iterations: 10", ""},
		{"object body is a form", "import http from 'k6/http';\nexport default function () { http.post('http://h/l', {user: 'a', n: 1}); }",
			"form:\n", ""},
		{"request and __ENV", "import http from 'k6/http';\nexport default function () { http.request('PATCH', `${__ENV.HOST || 'http://h'}/x`, 'b'); }",
			`base_url: '{{ env("HOST", "http://h") }}'`, ""},
		{"a per-vu-iterations scenario", "import http from 'k6/http';\nexport const options = {scenarios: {s: {executor: 'per-vu-iterations', vus: 3, iterations: 4}}};\nexport default function () { http.get('http://h/'); }",
			"iterations: 12", ""},
		{"no k6/http", "export default function () {}", "", "sends no HTTP request"},
		{"not javascript", "export default function ( {", "", "cannot parse"},
		{"nothing runs", "import http from 'k6/http';\nexport const options = {scenarios: {s: {executor: 'externally-controlled'}}};", "", "scenario s: no function to run"},
	} {
		t.Run(c.name, func(t *testing.T) {
			tst, err := Import([]byte(c.src), "s.js")
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Errorf("%v, want %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			out, err := importer.Render(tst, "t.yaml")
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			if !strings.Contains(string(out), c.want) {
				t.Errorf("lacks %q:\n%s", c.want, out)
			}
		})
	}
}

// TestImportKeepsTaggedThresholds: k6's commonest gate,
// http_req_duration{expected_response:true}, is kept (dropped, the
// imported test passed where k6 failed); a filter loadlens cannot keep is
// listed as not converted, naming it.
func TestImportKeepsTaggedThresholds(t *testing.T) {
	src := "import http from 'k6/http';\nexport const options = {vus: 1, duration: '10s', thresholds: {\n" +
		"  'http_req_duration{expected_response:true}': ['p(95)<500'],\n" +
		"  'http_req_duration{expected_response:true,method:GET}': ['p(99)<900'],\n" +
		"  'http_req_failed{expected_response:true}': ['rate<0.01'],\n" +
		"  'http_reqs{status:200}': ['count>10'],\n}};\nexport default function () { http.get('http://h/x'); }"
	tst, out := importRendered(t, src)
	for _, want := range []string{"'http_req_duration{expected_response:true}'", "'http_req_duration{expected_response:true,method:GET}'", "'http_reqs{status:200}'"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("lacks %s:\n%s", want, out)
		}
	}
	notes := strings.Join(tst.NotConverted, "\n")
	for _, want := range []string{"http_req_failed{expected_response:true} (filter expected_response:true: loadlens keeps expected_response:true on http_req_duration only)"} {
		if !strings.Contains(notes, want) {
			t.Errorf("not converted lacks %q:\n%s", want, notes)
		}
	}
}

// TestImportKeepsGroupThresholds: k6's per-group gate,
// http_req_duration{group:::login}, is kept when the script has that group
// (nested ones as ::outer::inner) and listed when it has not (the s35 trial:
// it was dropped, though the test format judges it).
func TestImportKeepsGroupThresholds(t *testing.T) {
	src := "import http from 'k6/http';\nimport { group } from 'k6';\nexport const options = {vus: 1, duration: '10s', thresholds: {\n" +
		"  'http_req_duration{group:::login}': ['p(95)<300'],\n" +
		"  'group_duration{group:::login::form}': ['p(95)<400'],\n" +
		"  'http_req_duration{group:::checkout}': ['p(95)<500'],\n}};\n" +
		"export default function () {\n  group('login', function () {\n    http.get('http://h/a');\n" +
		"    group('form', () => { http.post('http://h/b'); });\n  });\n}\n"
	tst, out := importRendered(t, src)
	for _, want := range []string{"'http_req_duration{group:::login}'", "'group_duration{group:::login::form}'"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("lacks %s:\n%s", want, out)
		}
	}
	if strings.Contains(string(out), "{group:::checkout}'") {
		t.Errorf("kept a threshold on a group the script lacks:\n%s", out)
	}
	notes := strings.Join(tst.NotConverted, "\n")
	if want := `threshold on http_req_duration{group:::checkout} (filter group:::checkout: no group of the test is named "::checkout"`; !strings.Contains(notes, want) {
		t.Errorf("not converted lacks %q:\n%s", want, notes)
	}
}

// TestImportGroups: group() becomes a group step, nested as in the script,
// and a check after an inner group still lands on its request.
func TestImportGroups(t *testing.T) {
	src := "import http from 'k6/http';\nimport { check, group } from 'k6';\nexport default function () {\n" +
		"  group('outer', function () {\n    const r = http.get('http://h/a');\n    group('inner', () => { http.get('http://h/b'); });\n" +
		"    check(r, {'a ok': (res) => res.status === 200});\n  });\n  http.get('http://h/c');\n}\n"
	_, out := importRendered(t, src)
	want := `      - group: outer
        steps:
          - get: /a
            check:
              - {name: "a ok", status: 200}
          - group: inner
            steps:
              - get: /b
      - get: /c
`
	if !strings.Contains(string(out), want) {
		t.Errorf("lacks\n%s\nin\n%s", want, out)
	}
}

// importRendered imports a k6 script (as s.js) and renders it (as t.yaml),
// failing the test when either fails.
func importRendered(t *testing.T, src string) (*importer.Test, []byte) {
	t.Helper()
	tst, err := Import([]byte(src), "s.js")
	if err != nil {
		t.Fatal(err)
	}
	out, err := importer.Render(tst, "t.yaml")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return tst, out
}
