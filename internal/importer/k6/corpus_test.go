package k6

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loadlens/loadlens/internal/importer"
)

// outcome is what importing a script of the corpus gives.
type outcome int

const (
	converted outcome = iota // a test that validates, with what it did not convert listed by line
	refused                  // an error naming why
)

// corpus is k6's own examples/ scripts (testdata/k6/examples, README.md
// there) and what the import makes of each: 26 use k6/http, 3 gRPC or
// WebSocket, 7 none of them (a browser, crypto, timers, logging, an endless
// loop): those are refused naming their modules and what their default
// function runs instead, each with its line. For a converted script, the
// lines its notes must hold (the first ones, as the import orders them);
// for a refused one, its error. A change to the import that changes an
// outcome changes this table.
var corpus = []struct {
	file  string
	want  outcome
	notes []string
}{
	{"base64.js", refused, []string{"the script sends no HTTP request: it does not import k6/http, only k6 (line 1), k6/encoding (line 2); its default function runs check (line 8), encoding.b64encode (line 9), encoding.b64decode (line 10); loadlens"}},
	{"browser_remote.js", refused, []string{"the script sends no HTTP request: it does not import k6/http, only k6/browser (line 1); its default function runs chromium.connectOverCDP (line 28), browser.newPage (line 29), page.goto (line 32)"}},
	{"cookies.js", converted, []string{"line 15: param cookies of http.get(\"http://httpbin.org/cooki", "line 23: http.cookieJar: http.cookieJar()"}},
	{"crypto.js", refused, []string{"the script sends no HTTP request: it does not import k6/http, only k6/crypto (line 1); its default function runs crypto.sha1 (line 5), console.log (line 6), crypto.createHash (line 9)"}},
	{"custom_metrics.js", converted, []string{"line 35: myGauge.add(maxResponseTime): my_gauge is a Gauge", "line 41: myTrend.add(res.timings.connecting + res.timings.tls_handshaking) (a response's timings are not a value"}},
	{"es6sample.js", converted, []string{"line 16: check on something other than a response: check(Mat", "line 20: the tags of mCounter.add(1, {tag: \"test\"})"}},
	{"experimental_redis.js", converted, []string{"line 4: import from k6/execution", "line 5: import from https://jslib.k6.io/k6-summary/0.0.2/index.js", "line 52: redisClient.sadd('rating_ids', ...ratingIDs): a Redis command, not sent; its members are what srandmember(\"rating_ids\") picks from", "line 70: redisClient.del('rating_ids'): a Redis command"}},
	{"graphql.js", converted, []string{"line 33: statement if (res.status === 200) { console.log(JSO"}},
	{"grpc_healthcheck.js", converted, []string{"line 15: client.healthCheck() calls grpc.health.v1.Health/Check"}},
	{"grpc_invoke.js", converted, []string{"line 9: __ENV.GRPC_PROTO_PATH: a .proto path is not a template", "line 13: client.load's .proto paths, relative to the script, are written relative to the test file"}},
	{"html_form_post.js", converted, []string{"line 19: form field topping of http.post(\"http://httpbin.org", "line 28: check \"has correct toppings\": JSON.stringify(r.json"}},
	{"http_2.js", converted, []string{"line 7: check \"protocol is HTTP/2\": r.proto == \"HTTP/2.0\" (l"}},
	{"http_basic_auth.js", converted, []string{}},
	{"http_batch.js", converted, []string{"line 5: http.batch's requests are sent one after another, no", "line 16: check \"pi page has right content\": res.body === \"3."}},
	{"http_digest_auth.js", converted, []string{"line 6: auth \"digest\" of http.get(\"http://httpbin.org/digest"}},
	{"http_get.js", converted, []string{}},
	{"http_verbs.js", converted, []string{}},
	{"influxdb-v1.js", converted, []string{"line 7: check \"protocol is HTTP/2\": r.proto == \"HTTP/2.0\" (l"}},
	{"json.js", converted, []string{"line 15: check \"is key correct\": j.json.key === \"value\" (loa"}},
	{"jwt.js", refused, []string{"the script sends no HTTP request: it does not import k6/http, only k6/crypto (line 1), k6/encoding (line 2), k6 (line 3); its default function runs encode (line 41), console.log (line 42), decode (line 43)"}},
	{"localhost.js", converted, []string{"line 15: tag kind of http.get(\"http://localhost:8080/\", {tag", "line 15: tag kind of http.get(\"http://localhost:8080/style.c"}},
	{"logging.js", refused, []string{"the script sends no HTTP request: it imports no module, k6/http included; its default function runs console.log (line 2), console.debug (line 3)"}},
	{"malicious.js", refused, []string{"the script sends no HTTP request: it imports no module, k6/http included; its default function runs while (true) (line 2); loadlens"}},
	{"ocsp.js", converted, []string{"line 7: check \"is OCSP response good\": r.ocsp.status === htt"}},
	{"opentelemetry.js", converted, []string{"line 15: check \"protocol is HTTP/2\": r.proto == \"HTTP/2.0\" (", "line 8: threshold on http_reqs{expected_response:true} (filt"}},
	{"pantheon.js", converted, []string{"line 122: check \"title is correct\": res.html(\"title\").text()", "line 126: http.batch's requests are sent one after another, "}},
	{"pantheontest.js", converted, []string{"line 24: top-level code: cacheheaders[\"If-Modified-Since\"] =", "line 399: statement if (cached) { params = {headers: cacheh"}},
	{"redirects.js", converted, []string{"line 21: check \"url is correct\": r.url === \"https://httpbin."}},
	{"stages.js", converted, []string{}},
	{"tagging.js", converted, []string{"line 17: tag my_tag of http.get(\"http://httpbin.org/\", {tags", "line 23: myTrend.add(res.timings.connecting, {my_tag"}},
	{"thresholds.js", converted, []string{}},
	{"thresholds_readme_example.js", converted, []string{"line 40: check \"http2 is used\": r.proto === \"HTTP/2.0\" (load", "line 46: failureRate.add(!checkRes): the result of a check not converted whole"}},
	{"timers.js", refused, []string{"the script sends no HTTP request: it does not import k6/http, only k6/timers (line 2); its default function runs setTimeout (line 22); loadlens"}},
	{"tls_skip_cert_verification.js", converted, []string{}},
	{"tlsconfig.js", converted, []string{"line 18: check \"is TLSv1.2\": r.tls_version === http.TLS_1_2 ", "line 19: check \"is sha256 cipher suite\": r.tls_cipher_suite ", "line 5: option tlsCipherSuites", "line 9: option tlsVersion"}},
	{"websocket.js", converted, []string{"line 8: tag my_tag of ws.connect", "line 14: in socket.setInterval: socket.ping();"}},
}

// TestCorpusK6Examples imports each of the corpus's scripts: a converted
// one validates as a test file and says what it left out, each with its
// line; a refused one says why. All 29 that send HTTP, gRPC or WebSocket
// load convert (experimental_redis.js's one request with the member of a
// Redis set its setup() filled picked at random); the 7 that send none are
// refused.
func TestCorpusK6Examples(t *testing.T) {
	files, err := filepath.Glob("../testdata/k6/examples/*.js")
	if err != nil || len(files) != len(corpus) {
		t.Fatalf("%d scripts in testdata/k6/examples, %d in the table (%v)", len(files), len(corpus), err)
	}
	n := 0
	for _, c := range corpus {
		t.Run(c.file, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join("../testdata/k6/examples", c.file))
			if err != nil {
				t.Fatal(err)
			}
			tst, err := Import(src, c.file)
			if c.want == refused {
				if err == nil || !strings.HasPrefix(err.Error(), c.notes[0]) {
					t.Errorf("import: %v, want refused: %s", err, c.notes[0])
				}
				return
			}
			if err != nil {
				t.Fatalf("refused: %v", err)
			}
			if out, err := importer.Render(tst, "t.yaml"); err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			n++
			for i, want := range c.notes {
				if i >= len(tst.NotConverted) || !strings.HasPrefix(tst.NotConverted[i], want) {
					t.Errorf("not converted:\n%s\nwant its line %d to start %q", strings.Join(tst.NotConverted, "\n"), i+1, want)
				}
			}
			for _, note := range tst.NotConverted {
				if !strings.HasPrefix(note, "line ") && !strings.HasPrefix(note, "scenario ") {
					t.Errorf("a note without its line: %s", note)
				}
				if strings.Contains(note, "@httpbin") || strings.Contains(note, "passwd@") {
					t.Errorf("a note shows a URL's credentials: %s", note)
				}
			}
		})
	}
	if n < 29 {
		t.Errorf("%d of the corpus's 29 HTTP, gRPC and WebSocket scripts converted, want 29", n)
	}
}
