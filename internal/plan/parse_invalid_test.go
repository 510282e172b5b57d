package plan

import (
	"errors"
	"strings"
	"testing"

	"github.com/loadlens/loadlens/internal/yamldoc"
)

// head is a valid test up to its flow: steps appended to it start on line 7.
const head = `base_url: http://127.0.0.1:8080
scenarios:
  s:
    rate: 10
    duration: 1m
    flow:
`

// getX is a valid request step, for cases whose error is elsewhere.
const getX = "      - get: /x\n"

func TestParseInvalid(t *testing.T) {
	env := func(k string) (string, bool) {
		if k == "HOST" {
			return "127.0.0.1", true
		}
		return "", false
	}
	tests := []struct {
		name string
		src  string
		want string // the full error text, one error per line
	}{
		// YAML syntax and document shape.
		{"syntax: unclosed flow list", "a: [1, 2", "1:4: a: YAML syntax error: sequence end token ']' not found"},
		{"syntax: tab indentation", "scenarios:\n\t- a", "2:1: scenarios: YAML syntax error: found a tab that cannot start any token (indent with spaces: YAML does not allow tabs there)"},
		{"syntax: duplicate key", "name: a\nname: b\n", `2:1: YAML syntax error: mapping key "name" already defined at [1:1]`},
		{"empty file", "# nothing\n", "1:1: the test file is empty: it needs at least scenarios"},
		{"two documents", head + getX + "---\nname: b\n", "9:1: a test file holds one YAML document; remove this second one (after ---)"},
		{"top level is a list", "- get: /x\n", "1:1: expected a mapping of test settings (name, base_url, scenarios, ...), got a list"},
		{"unknown alias", head + "      - *step\n", "7:9: scenarios.s.flow[0]: unknown alias *step (define &step before using it)"},
		{"unsupported tag", head + "      - get: !foo /x\n", "7:14: scenarios.s.flow[0].get: unsupported tag !foo (only the standard !!str, !!int, !!float, !!bool, !!null, !!map and !!seq)"},
		{"merge of a scalar", head + "      - <<: 5\n        get: /x\n", "7:13: scenarios.s.flow[0]: expected a mapping to merge with <<, got a number 5"},

		// Top-level keys.
		{"unknown top key with suggestion", "scenarois: {}\n", `1:1: scenarois: unknown key "scenarois"; did you mean "scenarios"? (allowed: name, base_url, headers, timeout, expect_status, redirects, max_body, allow_hosts, insecure_skip_tls_verify, http2, thresholds, scenarios, observe, outputs, tracing, kubernetes, setup, setup_timeout, teardown, teardown_timeout, metrics)`},
		{"no scenarios", "name: x\n", "1:1: missing key \"scenarios\": a test needs at least one scenario"},
		{"empty scenarios", "scenarios: {}\n", "1:12: scenarios: needs at least one scenario"},
		{"name with spaces", "name: my test\n" + head + getX, `1:7: name: name "my test" may only use letters, digits, '.', '_' and '-' (it names the run's directory)`},
		{"bad base url scheme", "base_url: ftp://x\nscenarios:\n  s: {rate: 1, duration: 1s, flow: [get: http://x/]}\n", `1:11: base_url: bad base URL "ftp://x": expected http:// or https:// and a host, like http://127.0.0.1:8080`},
		{"base url port past 65535", "base_url: http://127.0.0.1:99999\nscenarios:\n  s: {rate: 1, duration: 1s, flow: [get: /x]}\n",
			`1:28: base_url: bad URL "http://127.0.0.1:99999": the port must be a number from 1 to 65535, not 99999`},
		{"env base url port 0", "base_url: http://{{ env.HOST }}:0\nscenarios:\n  s: {rate: 1, duration: 1s, flow: [get: /x]}\n",
			`1:33: base_url: bad URL "http://127.0.0.1:0": the port must be a number from 1 to 65535, not 0`},
		{"request port past 65535", head + "      - get: http://127.0.0.1:99999/\n",
			`7:31: scenarios.s.flow[0].get: bad URL "http://127.0.0.1:99999/": the port must be a number from 1 to 65535, not 99999`},
		{"quoted request port with query", head + "      - get: \"https://h:65536/x\"\n        query: {a: 1}\n",
			`7:25: scenarios.s.flow[0].get: bad URL "https://h:65536/x?a=1": the port must be a number from 1 to 65535, not 65536`},
		{"base url not constant", "base_url: http://h/{{ randInt(1, 2) }}\nscenarios:\n  s: {rate: 1, duration: 1s, flow: [get: http://x/]}\n", "1:11: base_url: base_url must be the same for every request: only env lookups may be templated"},
		{"zero timeout", "timeout: 0\n" + head + getX, "1:10: timeout: must be greater than 0 (use 500ms, 2s, 1m)"},
		{"insecure not a bool", "insecure_skip_tls_verify: yes\n" + head + getX, `1:27: insecure_skip_tls_verify: expected true or false, got a string "yes"`},
		{"bad default header name", "headers: {Bad Header: x}\n" + head + getX, `1:11: headers.Bad Header: bad header name "Bad Header"`},
		{"header given twice", "headers:\n  accept: a\n  Accept: b\n" + head + getX, "3:3: headers.Accept: header Accept is given twice (names are case-insensitive)"},
		{"multi-line header value", "headers:\n  X-A: \"a\\nb\"\n" + head + getX, "2:8: headers.X-A: a header value must be on one line"},

		// Scenarios and load models.
		{"bad scenario name", "scenarios:\n  my scenario: {rate: 1, duration: 1s, flow: [get: http://x/]}\n", `2:3: scenarios.my scenario: scenario name "my scenario" may only use letters, digits, '.', '_' and '-'`},
		{"scenario key typo", "base_url: http://h\nscenarios:\n  s:\n    rate: 1\n    duraton: 1m\n    flow: [get: /x]\n",
			`5:5: scenarios.s.duraton: unknown key "duraton"; did you mean "duration"? (allowed: model, start_time, graceful_stop, http2, data, vu_vars, flow, rate, duration, start_rate, stages, time_unit, pre_allocated_vus, max_vus, arrival_slack)`},
		{"unknown key before the model is known", "base_url: http://h\nscenarios:\n  s:\n    stages: []\n    flw: [get: /x]\n",
			`5:5: scenarios.s.flw: unknown key "flw"; did you mean "flow"? (allowed: model, start_time, graceful_stop, http2, data, vu_vars, flow, rate, duration, start_rate, stages, time_unit, pre_allocated_vus, max_vus, arrival_slack, vus, start_vus, graceful_ramp_down, iterations, max_duration)`},
		{"model typo", "base_url: http://h\nscenarios:\n  s:\n    model: arival-rate\n    flow: [get: /x]\n", `4:12: scenarios.s.model: unknown value "arival-rate"; did you mean "arrival-rate"? (use arrival-rate, vus, iterations)`},
		{"model not inferable", "base_url: http://h\nscenarios:\n  s:\n    stages: [{duration: 1m, target: 1}]\n    flow: [get: /x]\n", `3:3: scenarios.s: missing key "model" (arrival-rate, vus or iterations): it cannot be inferred without rate, vus or iterations`},
		{"model conflict", "base_url: http://h\nscenarios:\n  s:\n    rate: 1\n    iterations: 5\n    flow: [get: /x]\n", `5:5: scenarios.s: cannot infer the model: "rate" means arrival-rate but "iterations" means iterations; set model:`},
		{"key of another model", "base_url: http://h\nscenarios:\n  s:\n    model: vus\n    vus: 2\n    rate: 5\n    duration: 1m\n    flow: [get: /x]\n", `6:5: scenarios.s.rate: "rate" does not apply to a vus scenario (allowed: model, start_time, graceful_stop, http2, data, vu_vars, flow, vus, duration, start_vus, stages, graceful_ramp_down)`},
		{"bare number duration", "base_url: http://h\nscenarios:\n  s:\n    rate: 1\n    duration: 5\n    flow: [get: /x]\n", "5:15: scenarios.s.duration: bad duration 5: add a unit, like 5ms, 5s or 5m"},
		{"negative vus", "base_url: http://h\nscenarios:\n  s:\n    vus: -5\n    duration: 1m\n    flow: [get: /x]\n", "4:10: scenarios.s.vus: must not be negative, got -5"},
		{"vus not a whole number", "base_url: http://h\nscenarios:\n  s:\n    vus: 1.5\n    duration: 1m\n    flow: [get: /x]\n", "4:10: scenarios.s.vus: expected a whole number, got 1.5"},
		{"vus too large", "base_url: http://h\nscenarios:\n  s:\n    vus: 99999999999999999999\n    duration: 1m\n    flow: [get: /x]\n", "4:10: scenarios.s.vus: number 99999999999999999999 is too large"},
		{"a rate beyond a float", "base_url: http://h\nscenarios:\n  s:\n    rate: 1e400\n    duration: 1m\n    flow: [get: /x]\n", "4:11: scenarios.s.rate: number 1e400 is too large"},
		{"rate of the wrong type", "base_url: http://h\nscenarios:\n  s:\n    rate: fast\n    duration: 1m\n    flow: [get: /x]\n", `4:11: scenarios.s.rate: expected a number, got a string "fast"`},
		{"quoted number is a string", "base_url: http://h\nscenarios:\n  s:\n    rate: \"5\"\n    duration: 1m\n    flow: [get: /x]\n", `4:11: scenarios.s.rate: expected a number, got a string "5"`},
		{"rate with stages", "base_url: http://h\nscenarios:\n  s:\n    rate: 1\n    stages: [{duration: 1m, target: 1}]\n    flow: [get: /x]\n", "5:5: scenarios.s.stages: use either rate with duration, or start_rate with stages, not both"},
		{"stages without duration", "base_url: http://h\nscenarios:\n  s:\n    start_rate: 1\n    stages: [{duration: 0s, target: 1}]\n    flow: [get: /x]\n", "5:13: scenarios.s.stages: needs at least one stage with a duration above 0"},
		{"stage without target", "base_url: http://h\nscenarios:\n  s:\n    start_rate: 1\n    stages: [{duration: 1m}]\n    flow: [get: /x]\n", `5:14: scenarios.s.stages[0]: missing key "target"`},
		{"stage key typo", "base_url: http://h\nscenarios:\n  s:\n    start_rate: 1\n    stages: [{duration: 1m, traget: 1}]\n    flow: [get: /x]\n",
			`5:29: scenarios.s.stages[0].traget: unknown key "traget"; did you mean "target"? (allowed: duration, target)`},
		{"arrival slack too wide", "base_url: http://h\nscenarios:\n  s:\n    rate: 1\n    duration: 1m\n    arrival_slack: 20ms\n    flow: [get: /x]\n",
			"6:20: scenarios.s.arrival_slack: arrival_slack 20ms is more than 5ms: arrivals would start in bursts the target notices (0s spaces them exactly)"},
		{"arrival slack negative", "base_url: http://h\nscenarios:\n  s:\n    rate: 1\n    duration: 1m\n    arrival_slack: -1ms\n    flow: [get: /x]\n",
			"6:20: scenarios.s.arrival_slack: must not be negative, got -1ms"},
		{"arrival slack in a closed model", "base_url: http://h\nscenarios:\n  s:\n    vus: 1\n    duration: 1m\n    arrival_slack: 1ms\n    flow: [get: /x]\n",
			`6:5: scenarios.s: cannot infer the model: "vus" means vus but "arrival_slack" means arrival-rate; set model:`},
		{"pre-allocated above max", "base_url: http://h\nscenarios:\n  s:\n    rate: 1\n    duration: 1m\n    pre_allocated_vus: 5\n    max_vus: 2\n    flow: [get: /x]\n", "6:5: scenarios.s.pre_allocated_vus: pre_allocated_vus (5) is more than max_vus (2)"},
		{"a wrong rate does not hide max_vus (every problem at once)", "base_url: http://h\nscenarios:\n  a:\n    rate: \"5\"\n    duration: 10s\n    max_vus: -3\n    flow: [get: /]\n",
			"4:11: scenarios.a.rate: expected a number, got a string \"5\"\n6:14: scenarios.a.max_vus: must be at least 1, got -3"},
		{"a wrong rate does not hide its duration or pre_allocated_vus", "base_url: http://h\nscenarios:\n  a:\n    rate: \"5\"\n    duration: -1s\n    pre_allocated_vus: -1\n    flow: [get: /]\n",
			"4:11: scenarios.a.rate: expected a number, got a string \"5\"\n5:15: scenarios.a.duration: must not be negative, got -1s\n6:24: scenarios.a.pre_allocated_vus: must not be negative, got -1"},
		{"zero time unit", "base_url: http://h\nscenarios:\n  s:\n    rate: 1\n    duration: 1m\n    time_unit: 0s\n    flow: [get: /x]\n", "6:16: scenarios.s.time_unit: must be greater than 0 (use 500ms, 2s, 1m)"},
		{"iterations missing", "base_url: http://h\nscenarios:\n  s:\n    model: iterations\n    flow: [get: /x]\n", `3:3: scenarios.s: missing key "iterations": how many iterations to run in total`},
		{"more vus than iterations", "base_url: http://h\nscenarios:\n  s:\n    vus: 5\n    iterations: 2\n    flow: [get: /x]\n", "4:5: scenarios.s.vus: vus (5) is more than iterations (2): some VUs would never run an iteration"},

		// Flows and steps.
		{"flow missing", "scenarios:\n  s: {vus: 1, duration: 1s}\n", `2:3: scenarios.s: missing key "flow": the list of steps each iteration runs`},
		{"flow not a list", head + "      get: /x\n", "7:7: scenarios.s.flow: expected a list of steps, got a mapping"},
		{"flow only thinks", head + "      - think: 1s\n", "6:5: scenarios.s.flow: needs at least one request step (get: /path, post: /path, ...)"},
		{"step without request", head + "      - name: x\n", "7:9: scenarios.s.flow[0]: a step needs a request (get: /path, post: /path, ... or method: with path:) or think:"},
		{"step with two methods", head + "      - get: /x\n        post: /y\n", "8:9: scenarios.s.flow[0].post: a step sends one request: get and post both given"},
		{"step request key typo", head + "      - gte: /x\n", `7:9: scenarios.s.flow[0].gte: unknown key "gte"; did you mean "get"? (allowed: get, post, put, patch, delete, head, options, method, path, name, query, headers, timeout, expect_status, redirects, max_body, json, form, body, body_file, check, extract, think, group, repeat, for_each, if, unless, choose, set, add, sse, ws, grpc)`},
		{"missing key beside a typo elsewhere", "base_url: http://h\ntreshold: {}\nscenarios:\n  s:\n    rate: 1\n    flow: [get: /x]\n",
			`2:1: treshold: unknown key "treshold"; did you mean "thresholds"? (allowed: name, base_url, headers, timeout, expect_status, redirects, max_body, allow_hosts, insecure_skip_tls_verify, http2, thresholds, scenarios, observe, outputs, tracing, kubernetes, setup, setup_timeout, teardown, teardown_timeout, metrics)` + "\n" +
				"5:5: scenarios.s.rate: rate needs duration (how long to hold it), or use start_rate with stages"},
		{"step key typo", head + "      - get: /x\n        heders: {A: b}\n", `8:9: scenarios.s.flow[0].heders: unknown key "heders"; did you mean "headers"? (allowed: get, post, put, patch, delete, head, options, method, path, name, query, headers, timeout, expect_status, redirects, max_body, json, form, body, body_file, check, extract, think, group, repeat, for_each, if, unless, choose, set, add, sse, ws, grpc)`},
		{"think with other keys", head + getX + "      - think: 1s\n        name: pause\n", `9:9: scenarios.s.flow[1].name: a think step has no other keys; "name" belongs on a request step`},
		{"unclosed template after an unknown name", head + "      - get: \"http://127.0.0.1:1/{{ user \"\n", `7:34: scenarios.s.flow[0].get: unterminated {{: no closing }}`},
		{"duration too large", head + getX + "      - think: 9999999999h\n", `8:16: scenarios.s.flow[1].think: duration "9999999999h" is too large: at most 2562047h (about 292 years)`},
		{"duration too large in its sum", head + getX + "      - think: 2562047h1h\n", `8:16: scenarios.s.flow[1].think: duration "2562047h1h" is too large: at most 2562047h (about 292 years)`},
		{"misspelt huge duration", head + getX + "      - think: 9999999999x\n", `8:16: scenarios.s.flow[1].think: bad duration "9999999999x" (use 500ms, 2s, 1m)`},
		{"bad think duration", head + getX + "      - think: 1x\n", `8:16: scenarios.s.flow[1].think: bad duration "1x" (use 500ms, 2s, 1m)`},
		{"bad think range end", head + getX + "      - think: 1s..3x\n", `8:20: scenarios.s.flow[1].think: bad duration "3x" (use 500ms, 2s, 1m)`},
		{"reversed think range", head + getX + "      - think: {min: 3s, max: 1s}\n", "8:16: scenarios.s.flow[1].think: the minimum 3s is more than the maximum 1s"},
		{"relative path without base url", "scenarios:\n  s:\n    vus: 1\n    duration: 1s\n    flow: [get: /x]\n", `5:17: scenarios.s.flow[0].get: relative path "/x" needs base_url at the top of the file (or write a full http:// URL)`},
		{"method without path", head + "      - method: GET\n", `7:9: scenarios.s.flow[0]: missing key "path": method: needs path:`},
		{"path with shorthand", head + "      - get: /x\n        path: /y\n", "8:9: scenarios.s.flow[0].path: path goes with method:; get: already gives the path"},
		{"bad method", head + "      - method: GE T\n        path: /x\n", `7:17: scenarios.s.flow[0].method: bad HTTP method "GE T"`},
		{"empty path", head + "      - get: ''\n", "7:14: scenarios.s.flow[0].get: must not be empty"},
		{"negative step timeout", head + "      - get: /x\n        timeout: -1s\n", "8:18: scenarios.s.flow[0].timeout: must not be negative, got -1s"},

		// Templates.
		{"unknown variable", head + "      - get: /users/{{ usr }}\n", `7:24: scenarios.s.flow[0].get: unknown variable "usr" (no variables are defined)`},
		{"unknown variable with suggestions", head + "      - get: /u/{{ usr }}\n    data: users.csv\n", `7:20: scenarios.s.flow[0].get: unknown variable "usr" (known: password, user)`},
		{"template error after a quote escape", head + "      - get: '/it''s/{{ nope }}'\n", `7:25: scenarios.s.flow[0].get: unknown variable "nope" (no variables are defined)`},
		{"unterminated template", head + "      - get: /x/{{ vu\n", "7:17: scenarios.s.flow[0].get: unterminated {{: no closing }}"},
		{"template error after an escape", head + "      - get: \"/\\u00e9/{{ nope() }}\"\n", "7:26: scenarios.s.flow[0].get: unknown function nope (known: env, pick, randInt, randString, timestamp, uuid)"},
		{"template error in a block scalar", head + "      - post: /x\n        body: |\n          line one\n          two {{ oops }}\n", `10:18: scenarios.s.flow[0].body: unknown variable "oops" (no variables are defined)`},
		{"template error in a json body", head + "      - post: /x\n        json: {a: [1, {b: \"{{ missing }}\"}]}\n", `8:31: scenarios.s.flow[0].json.a[1].b: unknown variable "missing" (no variables are defined)`},
		{"template error in a query", head + "      - get: /x\n        query: {q: \"{{ randInt(1) }}\"}\n", "8:24: scenarios.s.flow[0].query.q: randInt(min, max) takes 2 arguments, got 1"},
		{"unset environment variable", head + "      - get: /{{ env.NOPE }}\n", `7:18: scenarios.s.flow[0].get: environment variable NOPE is not set (use env("NOPE", "default") for a default)`},

		// Bodies.
		{"two bodies", head + "      - post: /x\n        json: {a: 1}\n        body: raw\n", "9:9: scenarios.s.flow[0].body: give one body: json, form, body or body_file (json and body both given)"},
		{"body is a mapping", head + "      - post: /x\n        body: {a: 1}\n", "8:15: scenarios.s.flow[0].body: expected the body as text (use json: or form: for structured bodies), got a mapping"},
		{"json infinity", head + "      - post: /x\n        json: {a: .inf}\n", "8:19: scenarios.s.flow[0].json.a: JSON has no .inf; quote it to send a string"},
		{"query value is a mapping", head + "      - get: /x\n        query: {a: {b: 1}}\n", "8:20: scenarios.s.flow[0].query.a: expected text, a number or a list of them, got a mapping"},

		// Checks and extractions.
		{"check without source", head + "      - get: /x\n        check: [{name: ok}]\n", "8:17: scenarios.s.flow[0].check[0]: a check needs one of status, body_contains, body_matches, json, header"},
		{"check with two sources", head + "      - get: /x\n        check:\n          - status: 200\n            body_contains: ok\n", "10:13: scenarios.s.flow[0].check[0].body_contains: a check tests one thing: status and body_contains both given; split it into two checks"},
		{"json check without comparison", head + "      - get: /x\n        check: [{json: $.a}]\n", "8:17: scenarios.s.flow[0].check[0]: a json check needs one of eq, ne, lt, lte, gt, gte, contains, matches, exists"},
		// fresh39: a typo'd key read also as the key the check lacks, two errors for one slip.
		{"json check with a typo'd comparison", head + "      - get: /x\n        check: [{json: $.a, equals: 42}]\n",
			`8:29: scenarios.s.flow[0].check[0].equals: unknown key "equals" (allowed: name, status, body_contains, body_matches, json, header, size, eq, ne, lt, lte, gt, gte, contains, matches, exists)`},
		{"check with a typo'd source", head + "      - get: /x\n        check: [{stauts: 200}]\n",
			`8:18: scenarios.s.flow[0].check[0].stauts: unknown key "stauts"; did you mean "status"? (allowed: name, status, body_contains, body_matches, json, header, size, eq, ne, lt, lte, gt, gte, contains, matches, exists)`},
		{"extraction with a typo'd source", head + "      - get: /x\n        extract: {v: {jsn: $.a}}\n",
			`8:23: scenarios.s.flow[0].extract.v.jsn: unknown key "jsn"; did you mean "json"? (allowed: json, header, regex, default)`},
		{"json check with two comparisons", head + "      - get: /x\n        check: [{json: $.a, gt: 1, lt: 5}]\n", "8:36: scenarios.s.flow[0].check[0].lt: a check makes one comparison: gt and lt both given; split it into two checks"},
		{"comparison on a status check", head + "      - get: /x\n        check: [{status: 200, eq: 1}]\n", `8:31: scenarios.s.flow[0].check[0].eq: "eq" does not apply to a status check (it goes with json: or header:)`},
		{"status out of range", head + "      - get: /x\n        check: [{status: [200, 700]}]\n", "8:32: scenarios.s.flow[0].check[0].status[1]: 700 is not an HTTP status code (100 to 599)"},
		{"bad json path", head + "      - get: /x\n        check: [{json: \"$.a[\", exists: true}]\n", "8:29: scenarios.s.flow[0].check[0].json: bad JSON path: expected a quoted name or an index after [, found end of path"},
		{"bad regex", head + "      - get: /x\n        check: [{body_matches: 'id=(\\d+'}]\n", "8:33: scenarios.s.flow[0].check[0].body_matches: bad regex: missing closing ): `id=(\\d+`"},
		{"bad regex in the middle", head + "      - get: /x\n        check: [{body_matches: 'ok [z-a]'}]\n", "8:37: scenarios.s.flow[0].check[0].body_matches: bad regex: invalid character class range: `z-a`"},
		{"lt with a string", head + "      - get: /x\n        check: [{json: $.a, lt: ten}]\n", `8:33: scenarios.s.flow[0].check[0].lt: expected a number to compare with, got a string "ten"`},
		{"exists not a bool", head + "      - get: /x\n        check: [{json: $.a, exists: 1}]\n", "8:37: scenarios.s.flow[0].check[0].exists: expected true or false, got a number 1"},
		{"bad check header name", head + "      - get: /x\n        check: [{header: \"A B\", exists: true}]\n", `8:26: scenarios.s.flow[0].check[0].header: bad header name "A B"`},
		{"bad variable name", head + "      - get: /x\n        extract: {1x: {json: $.a}}\n", `8:19: scenarios.s.flow[0].extract.1x: variable "1x" is not a valid variable name (use letters, digits and _, not starting with a digit)`},
		{"reserved variable name", head + "      - get: /x\n        extract: {vu: {json: $.a}}\n", `8:19: scenarios.s.flow[0].extract.vu: variable "vu" is reserved (built-ins: vu, iteration, scenario, env)`},
		{"extraction without source", head + "      - get: /x\n        extract: {a: {default: x}}\n", "8:19: scenarios.s.flow[0].extract.a: an extraction needs json, header or regex"},
		{"extraction json with regex", head + "      - get: /x\n        extract: {a: {json: $.a, regex: x}}\n", "8:34: scenarios.s.flow[0].extract.a.regex: json extracts by path; it does not combine with regex"},
		{"extraction is a string", head + "      - get: /x\n        extract: {a: $.a}\n", `8:22: scenarios.s.flow[0].extract.a: expected an extraction like {json: $.token}, {header: Location} or {regex: 'id=(\d+)'}, got a string "$.a"`},

		// Data files.
		{"missing CSV file", head + "      - get: /u/{{ user }}\n    data: nope.csv\n", "8:11: scenarios.s.data: cannot read CSV file testdata/nope.csv: no such file or directory"},
		{"empty CSV file", head + getX + "    data: {file: empty.csv}\n", "8:18: scenarios.s.data.file: CSV file testdata/empty.csv is empty: it needs a header row naming the columns and at least one data row"},
		{"CSV without rows", head + getX + "    data: header-only.csv\n", "8:11: scenarios.s.data: CSV file testdata/header-only.csv has a header row but no data rows"},
		{"CSV with a bad column name", head + getX + "    data: bad-column.csv\n", `8:11: scenarios.s.data: CSV column 2 "pass word" is not a valid variable name (use letters, digits and _, not starting with a digit)`},
		// a file that is no CSV (a link to /etc/shadow) is not echoed: at most 20 runes, controls as ?
		{"CSV header that is a long line", head + getX + "    data: shadow-like.csv\n", `8:11: scenarios.s.data: CSV column 1 "root:$6$abcdefghSALT…" is not a valid variable name (use letters, digits and _, not starting with a digit)`},
		{"CSV header with controls", head + getX + "    data: control-column.csv\n", `8:11: scenarios.s.data: CSV column 2 "?[31mred?" is not a valid variable name (use letters, digits and _, not starting with a digit)`},
		{"unknown key that is a long line", "root:$6$abcdefghSALT$HASHHASHHASHHASHHASH:20228:0:99999:7::: 1\n", `1:1: root:$6$abcdefghSALT…: unknown key "root:$6$abcdefghSALT…" (allowed: name, base_url, headers, timeout, expect_status, redirects, max_body, allow_hosts, insecure_skip_tls_verify, http2, thresholds, scenarios, observe, outputs, tracing, kubernetes, setup, setup_timeout, teardown, teardown_timeout, metrics)`},
		{"data mode typo", head + getX + "    data: {file: users.csv, mode: uniqe}\n", `8:35: scenarios.s.data.mode: unknown value "uniqe"; did you mean "unique"? (use sequential, random, unique)`},
		{"on_exhausted without unique", head + getX + "    data: {file: users.csv, on_exhausted: fail}\n", "8:29: scenarios.s.data.on_exhausted: on_exhausted applies only to mode: unique (other modes reuse rows)"},
		{"data without file", head + getX + "    data: {mode: random}\n", `8:5: scenarios.s.data: missing key "file": the CSV file's path`},

		// Thresholds.
		{"unknown metric", head + getX + "thresholds:\n  http_req_duraton: [\"p(95) < 1s\"]\n", `9:3: thresholds.http_req_duraton: unknown metric "http_req_duraton" (known: http_req_duration, http_req_waiting, http_req_connecting, http_req_tls_handshaking, iteration_duration, group_duration, scheduler_lag, http_req_failed, checks, http_reqs, iterations, dropped_iterations, iterations_not_sent, data_sent, data_received, vus, vus_max, <protocol>_<fact> (sse_msgs_received; docs/protocols.md))`},
		{"bad threshold value", head + getX + "thresholds:\n  http_req_duration: [\"p(95) < 1x\"]\n", `9:33: thresholds.http_req_duration[0]: unknown time unit "x": use us, µs, ms, s, m or h (no unit means ms)`},
		{"unknown check when every check has an error: they are named, not 'none'",
			head + "      - get: /x\n        check:\n          - header: X\n            matches: '([a-'\n" +
				"thresholds:\n  'checks{check:\"nope\"}': [\"rate == 1\"]\n", "10:24: scenarios.s.flow[0].check[0].matches: bad regex: missing closing ]: `[a-`\n" +
				`12:18: thresholds.checks{check:"nope"}: unknown check "nope" (the test defines only 1 check with an error of its own, reported here: "header X")`},
		{"unknown check beside valid and broken checks",
			head + "      - get: /x\n        check:\n          - status: 200\n          - {json: $.a, eq: 1, name: total}\n          - {json: '$..[', exists: true}\n" +
				"thresholds:\n  'checks{check:\"nope\"}': [\"rate == 1\"]\n", "11:23: scenarios.s.flow[0].check[2].json: bad JSON path: expected a name after . (use ['...'] for other names), found '.'\n" +
				`13:18: thresholds.checks{check:"nope"}: unknown check "nope" (the test defines: "status is 200", "total"; and 1 check with an error of its own, reported here: "$..[")`},
		{"negative threshold duration (never passes)", head + getX + "thresholds:\n  http_req_duration: [\"p(95) < 1s\", \"p(95) < -5ms\"]\n", `9:46: thresholds.http_req_duration[1]: duration -5ms is negative: a time is 0 or more, e.g. p(95) < 500ms`},
		{"unknown endpoint filter", head + getX + "thresholds:\n  'http_req_duration{endpoint:\"GET /y\"}': \"p(95) < 1s\"\n",
			`9:32: thresholds.http_req_duration{endpoint:"GET /y"}: unknown endpoint "GET /y"; did you mean "GET /x"? (the test defines: "GET /x")`},
		{"unknown scenario filter", head + getX + "thresholds:\n  'iterations{scenario:nope}': \"count > 1\"\n", `9:24: thresholds.iterations{scenario:nope}: unknown scenario "nope" (the test defines: "s")`},
		{"unknown check filter", head + getX + "thresholds:\n  'checks{check:\"status is 201\"}': \"rate > 0.9\"\n", `9:18: thresholds.checks{check:"status is 201"}: unknown check "status is 201" (the test defines: none)`},
		{"threshold mapping without expression", head + getX + "thresholds:\n  checks:\n    - abort_on_fail: true\n", `10:7: thresholds.checks[0]: missing key "threshold": the expression, like "p(95) < 500ms"`},
		{"delay without abort", head + getX + "thresholds:\n  checks:\n    - threshold: rate > 0.9\n      delay_abort_eval: 10s\n", "11:7: thresholds.checks[0].delay_abort_eval: delay_abort_eval needs abort_on_fail: true"},
		{"threshold is a number", head + getX + "thresholds:\n  checks: 5\n", `9:11: thresholds.checks: unknown aggregation "5" for checks, a rate (allowed: rate)`},

		// Several errors come sorted by position.
		{"errors sorted by position", "thresholds:\n  nope: [\"x\"]\n" + head + "      - get: /x\n        timeout: 1x\n",
			`2:3: thresholds.nope: unknown metric "nope" (known: http_req_duration, http_req_waiting, http_req_connecting, http_req_tls_handshaking, iteration_duration, group_duration, scheduler_lag, http_req_failed, checks, http_reqs, iterations, dropped_iterations, iterations_not_sent, data_sent, data_received, vus, vus_max, <protocol>_<fact> (sse_msgs_received; docs/protocols.md))` + "\n" +
				`10:18: scenarios.s.flow[0].timeout: bad duration "1x" (use 500ms, 2s, 1m)`},
	}
	seen := map[string]bool{}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if seen[tt.name] {
				t.Fatalf("duplicate case name %q", tt.name)
			}
			seen[tt.name] = true
			p, err := Parse("testdata/t.yaml", []byte(tt.src), env)
			if err == nil {
				t.Fatalf("Parse succeeded with %d scenarios, want errors:\n%s", len(p.Scenarios), tt.want)
			}
			var es yamldoc.Errors
			if !errors.As(err, &es) {
				t.Fatalf("error is %T, want Errors: %v", err, err)
			}
			want := "testdata/t.yaml:" + strings.ReplaceAll(tt.want, "\n", "\ntestdata/t.yaml:")
			if got := err.Error(); got != want {
				t.Errorf("errors:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

func TestParseInvalidCapsErrors(t *testing.T) {
	var b strings.Builder
	b.WriteString(head)
	for range 30 {
		b.WriteString("      - get: /{{ nope }}\n")
	}
	_, err := Parse("t.yaml", []byte(b.String()), nil)
	var es yamldoc.Errors
	if !errors.As(err, &es) {
		t.Fatalf("error is %T, want Errors: %v", err, err)
	}
	if len(es) != yamldoc.MaxErrors+1 {
		t.Fatalf("got %d errors, want %d (the cap and a last line saying so)", len(es), yamldoc.MaxErrors+1)
	}
	last := es[len(es)-1]
	if want := "t.yaml:27:18: too many errors: 10 more not shown"; last.Error() != want {
		t.Errorf("last error %q, want %q", last.Error(), want)
	}
	for i := 1; i < len(es); i++ {
		if es[i].Line < es[i-1].Line {
			t.Errorf("error %d (line %d) comes after line %d: not sorted", i, es[i].Line, es[i-1].Line)
		}
	}
}
