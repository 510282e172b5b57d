package k6

import (
	"strings"
	"testing"
)

// TestImportProtocolsAndMetrics: k6/net/grpc calls, k6/ws sessions and
// k6/metrics adds become grpc:, ws: and add: steps (the test validates and
// holds want, in order); what does not map is listed with its line (note).
func TestImportProtocolsAndMetrics(t *testing.T) {
	const grpcHead = "import grpc from 'k6/net/grpc';\nimport { check } from 'k6';\nconst client = new grpc.Client();\nclient.load(['protos'], 'shop/cart.proto');\n"
	const wsHead = "import ws from 'k6/ws';\nimport { check } from 'k6';\n"
	const metricsHead = "import http from 'k6/http';\nimport { check } from 'k6';\nimport { Counter, Rate, Trend, Gauge } from 'k6/metrics';\n"
	for _, c := range []struct {
		name, src string
		want      []string
		note      string
	}{
		{"a unary call with metadata, a timeout and checks on status and message", grpcHead + `export default () => {
  client.connect('api.local:443');
  const r = client.invoke('shop.Cart/AddItem', {sku: 'a-' + __VU, quantity: 2}, {metadata: {'X-User': 'u1'}, timeout: '2s'});
  check(r, {'ok': (r) => r && r.status === grpc.StatusOK, 'qty': (r) => r.message.cart.items[0].quantity >= 1});
  client.close();
}`, []string{"- grpc: 'grpcs://api.local:443'", "method: shop.Cart/AddItem", "proto: [shop/cart.proto]", "import_paths: [protos]",
			"metadata:\n          x-user: u1", `message: {"sku":"a-{{ vu }}","quantity":2}`, "timeout: 2s",
			`{name: "ok", status: OK}`, `{name: "qty", json: "$.cart.items[0].quantity", gte: 1}`}, "line 9: client.close()"},
		{"plaintext with reflection, a NOT_FOUND expected", grpcHead + `export default () => {
  client.connect('127.0.0.1:9000', {plaintext: true, reflect: true});
  const r = client.invoke('/shop.Cart/Get', {});
  check(r, {'gone': (r) => r.status === grpc.StatusNotFound});
}`, []string{"- grpc: 'grpc://127.0.0.1:9000'", "method: shop.Cart/Get", "message: {}", `{name: "gone", status: NOT_FOUND}`}, ""},
		{"a call's name tag names its step; its other tags are named", grpcHead + "export default () => {\n  client.connect('h:1');\n  client.invoke('a.B/D', {}, {tags: {name: 'add item', team: 'x'}});\n}",
			[]string{"method: a.B/D", "name: 'add item'"}, "line 7: tag team of client.invoke"},
		{"a connect on the first iteration alone is a VU's connection", grpcHead + "export default () => {\n  if (__ITER == 0) {\n    client.connect('h:1', {plaintext: true});\n  }\n  client.invoke('a.B/D', {});\n}",
			[]string{"- grpc: 'grpc://h:1'", "method: a.B/D"}, ""},
		{"a call before connect is named", grpcHead + "export default () => {\n  client.invoke('a.B/C', {});\n  client.connect('h:1');\n  client.invoke('a.B/D', {});\n}",
			[]string{"method: a.B/D"}, "line 6: a call before client.connect"},
		{"a stream's writes become its call's messages, after the function's calls", grpcHead + `export default () => {
  client.connect('h:1', {plaintext: true});
  const s = new grpc.Stream(client, 'a.B/E');
  s.on('data', (m) => { console.log(m); });
  s.on('end', () => { client.close(); });
  s.write({a: 1});
  s.write({a: __VU});
  s.end();
  client.invoke('a.B/D', {});
}`, []string{"method: a.B/D", "method: a.B/E", "messages:\n          - {\"a\":1}\n          - {\"a\":\"{{ vu }}\"}"}, ""},
		{"a stream's handler that acts is named", grpcHead + `export default () => {
  client.connect('h:1');
  const s = new grpc.Stream(client, 'a.B/E');
  s.on('data', (m) => { s.write({echo: 1}); });
  s.write({a: 1});
}`, []string{"method: a.B/E", "message: {\"a\":1}"}, "line 8: in a stream's handler: s.write({echo: 1})"},
		{"a session: messages on open and on a schedule, closed after a time, a 101 check", wsHead + `export default function () {
  const res = ws.connect('wss://chat.local/room?x=1', {headers: {'X-User': 'u' + __VU}}, function (socket) {
    socket.on('open', () => {
      socket.send(JSON.stringify({type: 'join'}));
      socket.setInterval(() => { socket.send('ping'); }, 1000);
    });
    socket.on('message', (m) => console.log(m));
    socket.setTimeout(() => { socket.close(); }, 5000);
  });
  check(res, {'upgraded': (r) => r && r.status === 101});
}`, []string{`base_url: '{{ env("BASE_URL", "https://chat.local") }}'`, "- ws: '/room?x=1'", "X-User: 'u{{ vu }}'",
			`- text: '{"type":"join"}'`, "- text: ping\n            every: '1s'", "duration: '5s'", `{name: "upgraded", status: 101}`},
			"line 7: socket.setInterval's message is sent when the session opens too"},
		{"a check in the message handler judges each message", wsHead + `export default function () {
  ws.connect('ws://h/echo', {}, function (socket) {
    socket.on('open', () => socket.send('{"type":"hi"}'));
    socket.on('message', (m) => {
      check(m, {'is text': (d) => d === 'a.b', 'has hi': (d) => d.includes('hi')});
      check(JSON.parse(m), {'typed': (j) => j.type === 'hi', 'n': (j) => j.meta.n >= 2});
    });
    socket.setTimeout(() => socket.close(), 1000);
  });
}`, []string{"- ws: /echo", `{name: "is text", body_matches: "^a\\.b$"}`, `{name: "has hi", body_contains: "hi"}`,
			`{name: "typed", json: "$.type", eq: "hi"}`, `{name: "n", json: "$.meta.n", gte: 2}`}, ""},
		{"a check on a message it cannot convert is named as a check", wsHead + "export default function () {\n  ws.connect('ws://h/', {}, (socket) => {\n    socket.on('message', (m) => { check(m, {'long': (d) => d.length > 3}); });\n    socket.setTimeout(() => socket.close(), 1000);\n  });\n}",
			[]string{"duration: '1s'"}, "line 5: on a message: check(m, {long: (d) => { return d.length > 3; }}) (a ws: step checks a message's text"},
		{"a close on the first message ends the session", wsHead + `export default function () {
  ws.connect('ws://h/echo', null, function (socket) {
    socket.on('open', function () { socket.send('hi'); });
    socket.on('message', function () { socket.close(); });
  });
}`, []string{"- ws: /echo", "- text: hi", "max_messages: 1"}, ""},
		{"a reply to a message is named", wsHead + `export default function () {
  ws.connect('ws://h/echo', function (socket) {
    socket.on('message', function (m) { socket.send(m); });
    socket.setTimeout(function () { socket.close(); }, 1000);
  });
}`, []string{"duration: '1s'"}, "line 5: on a message: socket.send(m)"},
		{"k6/experimental/websockets: handlers set and added, a global timer closes, the session after the requests", `import http from 'k6/http';
import { WebSocket } from 'k6/experimental/websockets';
import { setTimeout, setInterval } from 'k6/timers';
export default function () {
  const ws = new WebSocket('ws://h/feed');
  ws.onopen = () => {
    ws.send('hello');
    setInterval(() => ws.send('tick'), 500);
  };
  ws.addEventListener('message', (e) => { console.log(e.data); });
  ws.onerror = (e) => console.log(e.error);
  setTimeout(() => { ws.close(); }, 3000);
  http.get('http://h/after');
}`, []string{"- get: /after", "- ws: /feed", "- text: hello", "- text: tick\n            every: '0.5s'", "duration: '3s'"}, ""},
		{"k6/experimental/websockets: a session that never closes is named", `import { WebSocket } from 'k6/experimental/websockets';
import http from 'k6/http';
export default function () {
  http.get('http://h/');
  const ws = new WebSocket('ws://h/feed');
  ws.onopen = () => ws.send('x');
  ws.send('too early');
  ws.binaryType = 'arraybuffer';
}`, []string{"- get: /"}, "line 5: a WebSocket session without an end the import finds"},
		{"a rate of a status test", "import http from 'k6/http';\nimport { Rate } from 'k6/metrics';\nconst errors = new Rate('errors');\nexport const options = {thresholds: {errors: ['rate < 0.1']}};\nexport default function () {\n  const res = http.get('http://h/');\n  errors.add(res.status !== 200);\n}",
			[]string{"metrics:\n  errors: rate", "errors:\n    - 'rate < 0.1'", "- if: {status: 200}\n        then:\n          - add: {errors: false}\n        else:\n          - add: {errors: true}"}, ""},
		{"metrics: constants, an extraction, a check's result, a time trend, their thresholds", metricsHead + `const items = new Counter('cart_items');
const ok = new Rate('ok_rate');
const took = new Trend('server_ms', true);
const size = new Trend('cart_size');
export const options = {thresholds: {cart_items: ['count > 10'], ok_rate: ['rate > 0.9'], server_ms: ['p(95) < 200'], 'cart_size{scenario:default}': ['avg < 5']}};
export default function () {
  const res = http.get('http://h/cart');
  const n = res.json('size');
  items.add(2);
  size.add(n);
  took.add(12.5);
  const passed = check(http.get('http://h/ok'), {'is 200': (r) => r.status === 200});
  ok.add(!passed);
}`, []string{"metrics:\n  cart_items: counter\n  ok_rate: rate\n  server_ms:\n    type: trend\n    time: true\n  cart_size: trend",
			"cart_items:\n    - 'count > 10'", "ok_rate:\n    - 'rate > 0.9'", "'cart_size{scenario:default}'",
			"extract:\n          n: {json: '$.size', default: ''}", "- add: {cart_items: 2}", "- add: {cart_size: '{{ n }}'}", "- add: {server_ms: 12.5}",
			"- get: /ok\n        check:\n          - {name: \"is 200\", status: 200}",
			"- if: {checks: passed}\n        then:\n          - add: {ok_rate: false}\n        else:\n          - add: {ok_rate: true}"}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			tst, out := importRendered(t, c.src)
			at := 0
			for _, w := range c.want {
				i := strings.Index(string(out[at:]), w)
				if i < 0 {
					t.Errorf("lacks %q after byte %d:\n%s", w, at, out)
					continue
				}
				at += i
			}
			if notes := strings.Join(tst.NotConverted, "\n"); c.note != "" && !strings.Contains(notes, c.note) {
				t.Errorf("not converted lacks %q:\n%s", c.note, notes)
			}
		})
	}
}

// TestImportMetricRefusals: each add a test cannot make, and each
// threshold on a metric that gets no value, is named with its line.
func TestImportMetricRefusals(t *testing.T) {
	src := `import http from 'k6/http';
import { check } from 'k6';
import { Gauge, Trend, Rate } from 'k6/metrics';
const g = new Gauge('max_ms');
const tr = new Trend('waiting');
const r2 = new Rate('second');
export const options = {thresholds: {waiting: ['p(95) < 100'], max_ms: ['value < 5']}};
export default function () {
  const res = http.get('http://h/');
  g.add(3);
  tr.add(res.timings.waiting);
  const ok = check(res, {'is 200': (r) => r.status === 200});
  http.get('http://h/next');
  r2.add(ok);
}`
	tst, err := Import([]byte(src), "s.js")
	if err != nil {
		t.Fatal(err)
	}
	notes := strings.Join(tst.NotConverted, "\n")
	for _, want := range []string{
		"line 10: g.add(3): max_ms is a Gauge",
		"line 11: tr.add(res.timings.waiting) (a response's timings are not a value an add: step takes; each request's duration is http_req_duration{name:…}",
		"line 14: r2.add(ok): a response's check or status after another request",
		"line 7: threshold on waiting (the test adds no value to waiting",
		"line 7: threshold on max_ms (the test adds no value to max_ms",
	} {
		if !strings.Contains(notes, want) {
			t.Errorf("not converted lacks %q:\n%s", want, notes)
		}
	}
	if len(tst.Metrics) != 0 || len(tst.Thresholds) != 0 {
		t.Errorf("metrics %v, thresholds %v: none gets a value", tst.Metrics, tst.Thresholds)
	}
}
