package mock

import (
	"strings"
	"testing"
	"time"
)

func TestParseValid(t *testing.T) {
	src := `
listen: 127.0.0.1:0
tls: {listen: 127.0.0.1:0}
admin: /_admin
defaults:
  headers: {Server: mock}
  latency: 5ms
routes:
  - name: user
    get: /users/{id}
    match:
      headers: {authorization: {matches: '^Bearer '}}
      query: {fields: name}
    headers: {X-Id: "{{ id }}"}
    json: {id: "{{ id }}", n: 1}
  - method: ANY
    path: /files/{key...}
    status: 201
    body: "{{ method }} {{ key }}"
    latency: {lognormal: {p50: 20ms, p99: 100ms}}
    errors:
      - {rate: 1%, status: [502, 503]}
      - {rate: 0.5%, reset: true}
    bandwidth: 1MiB/s
  - post: /echo
    vars: {name: {json: $.user.name}, page: {query: page}, sid: {cookie: sid}}
    match: {body: [{json: $.user.name, exists: true}, {contains: user}]}
    body: "{{ name }}/{{ page }}/{{ sid }}"
    latency: {percentiles: {p50: 10ms, p99: 50ms}}
`
	cfg, err := Parse("m.yaml", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Listen != "127.0.0.1:0" || cfg.TLS == nil || cfg.TLS.Listen != "127.0.0.1:0" || cfg.Admin != "/_admin" {
		t.Errorf("top level: %+v %+v", cfg, cfg.TLS)
	}
	if len(cfg.Routes) != 3 {
		t.Fatalf("routes: %d", len(cfg.Routes))
	}
	user, files, echo := cfg.Routes[0], cfg.Routes[1], cfg.Routes[2]
	for _, c := range []struct {
		what      string
		got, want any
	}{
		{"user name", user.Name, "user"},
		{"user method", user.Method, "GET"},
		{"user matchers", len(user.match), 2},
		{"user header key canonical", user.match[0].key, "Authorization"},
		{"user latency from defaults", user.initial.Latency.Fixed, 5 * time.Millisecond},
		{"user headers (default, own, content type)", len(user.headers), 3},
		{"files name", files.Name, "ANY /files/{key...}"},
		{"files method", files.Method, ""},
		{"files status", files.Status, 201},
		{"files latency", files.initial.Latency.Kind, "lognormal"},
		{"files faults", len(files.initial.Faults), 2},
		{"files bandwidth", files.initial.Bandwidth, float64(1 << 20)},
		{"files needs vars", files.needs.vars, true},
		{"echo vars", len(echo.vars), 3},
		{"echo body matchers", len(echo.match), 2},
		{"echo percentiles points (p0, p50, p99, p100)", len(echo.initial.Latency.Points), 4},
		{"user static body", string(user.static), ""},
	} {
		if c.got != c.want {
			t.Errorf("%s: got %v, want %v", c.what, c.got, c.want)
		}
	}
	if user.static != nil {
		t.Errorf("user's body is templated, not static")
	}
}

func TestParseErrors(t *testing.T) {
	for _, c := range []struct {
		name, src string
		want      []string
	}{
		{"no routes", "listen: 127.0.0.1:1\n", []string{`m.yaml:1:1: missing key "routes"`}},
		{"typo", "routes:\n  - get: /x\n    stauts: 200\n", []string{`m.yaml:3:5: routes[0].stauts: unknown key "stauts"; did you mean "status"?`}},
		{"swapped letters", "routes:\n  - get: /x\n    bdoy: hi\n", []string{`m.yaml:3:5: routes[0].bdoy: unknown key "bdoy"; did you mean "body"?`}},
		{"under-indented key", "routes:\n  - get: /x\n    status: 200\n   body: hi\n", []string{`m.yaml:4:4: routes[0]: YAML syntax error: value is not allowed in this context (indented 3 spaces where "status" on line 3 is at 4: indented too little?)`}},
		{"missing colon", "routes:\n  - get /x\n    status: 200\n", []string{`m.yaml:2:5: routes[0]: YAML syntax error: unexpected key name (missing ':' in "get /x"?)`}},
		{"two methods", "routes:\n  - get: /x\n    post: /y\n", []string{`m.yaml:3:11: routes[0].post: give one of`}},
		{"bad pattern", "routes:\n  - get: /a/{b c}\n", []string{`m.yaml:2:13: routes[0].get: bad parameter "{b c}"`}},
		{"rest not last", "routes:\n  - get: /a/{b...}/c\n", []string{`must be the last segment`}},
		{"bad duration", "routes:\n  - get: /x\n    latency: 5x\n", []string{`m.yaml:3:14: routes[0].latency: bad duration "5x"`}},
		{"lognormal without tail", "routes:\n  - get: /x\n    latency: {lognormal: {p50: 5ms}}\n", []string{`routes[0].latency.lognormal: give p50 and one of p75`}},
		{"lognormal tail below p50", "routes:\n  - get: /x\n    latency: {lognormal: {p50: 5ms, p99: 1ms}}\n", []string{`p99 (1ms) must be above p50 (5ms)`}},
		{"percentiles decreasing", "routes:\n  - get: /x\n    latency: {percentiles: {p50: 5ms, p90: 1ms}}\n", []string{`p90 (1ms) is below p50 (5ms)`}},
		{"two distributions", "routes:\n  - get: /x\n    latency: {fixed: 1ms, uniform: {min: 1ms, max: 2ms}}\n", []string{`give one distribution`}},
		{"uniform max below min", "routes:\n  - get: /x\n    latency: {uniform: {min: 2ms, max: 1ms}}\n", []string{`max (1ms) is below min (2ms)`}},
		{"rates above 100%", "routes:\n  - get: /x\n    errors: [{rate: 60%}, {rate: 50%}]\n", []string{`add up to 110%`}},
		{"bad rate", "routes:\n  - get: /x\n    errors: {rate: 2}\n", []string{`m.yaml:3:20: routes[0].errors.rate: bad rate "2"`}},
		{"status and reset", "routes:\n  - get: /x\n    errors: {rate: 1%, status: 500, reset: true}\n", []string{`give status or reset, not both`}},
		{"bad status", "routes:\n  - get: /x\n    status: 700\n", []string{`700 is not an HTTP status code`}},
		{"bad bandwidth", "routes:\n  - get: /x\n    bandwidth: 1MB\n", []string{`bad bandwidth "1MB": bytes per second like 1MB/s`}},
		{"unknown variable", "routes:\n  - get: /u/{id}\n    body: 'hi {{ idd }}'\n", []string{`m.yaml:3:18: routes[0].body: unknown variable "idd"`}},
		{"param shadows builtin", "routes:\n  - get: /u/{path}\n", []string{`path parameter "path" is a name templates already use`}},
		{"two bodies", "routes:\n  - get: /x\n    body: a\n    json: {a: 1}\n", []string{`give one body`}},
		{"duplicate names", "routes:\n  - get: /x\n  - get: /x\n", []string{`route name "GET /x" is used twice`}},
		{"under admin", "routes:\n  - get: /__mock/x\n", []string{`is under the admin prefix /__mock`}},
		{"bad listen", "listen: 8081\nroutes:\n  - get: /x\n", []string{`m.yaml:1:9: listen: bad address "8081"`}},
		{"bad regex", "routes:\n  - get: /x\n    match: {headers: {A: {matches: '('}}}\n", []string{`bad regex`}},
		{"two comparisons", "routes:\n  - get: /x\n    match: {query: {a: {eq: x, contains: y}}}\n", []string{`give exactly one comparison`}},
		{"body exists without json", "routes:\n  - get: /x\n    match: {body: {exists: true}}\n", []string{`exists needs json: PATH`}},
		{"missing file", "routes:\n  - get: /x\n    file: /nonexistent/f.bin\n", []string{`cannot read /nonexistent/f.bin`}},
		{"cert without key", "tls: {listen: 127.0.0.1:0, cert: c.pem}\nroutes:\n  - get: /x\n", []string{`give both cert and key`}},
		{"not yaml", "routes: [\n", []string{`m.yaml:`, `YAML syntax error`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse("m.yaml", []byte(c.src), func(string) (string, bool) { return "", false })
			if err == nil {
				t.Fatalf("no error; want %q", c.want)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q\ndoes not contain %q", err, w)
				}
			}
		})
	}
}
