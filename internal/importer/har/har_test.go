package har

import (
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/importer"
)

func render(t *testing.T, har string, opt Options) (*importer.Test, string) {
	t.Helper()
	tst, err := Import(strings.NewReader(har), "x.har", opt)
	if err != nil {
		t.Fatal(err)
	}
	out, err := importer.Render(tst, "t.yaml")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return tst, string(out)
}

// synthetic is a session: a page, a script (static), a redirect the
// browser followed, a third-party call, a login whose token and a
// header's session id are sent back, and a pause of 2 s.
const synthetic = `{"log": {"creator": {"name": "test", "version": "1"}, "entries": [
 {"startedDateTime": "2024-01-01T00:00:00.000Z", "time": 50, "_resourceType": "document",
  "request": {"method": "GET", "url": "http://shop.test/", "headers": [{"name": "User-Agent", "value": "UA"}, {"name": "sec-fetch-mode", "value": "navigate"}, {"name": "Cookie", "value": "old=1"}]},
  "response": {"status": 200, "headers": [{"name": "Set-Cookie", "value": "sid=abc; Path=/"}], "content": {"mimeType": "text/html", "text": "<input name=\"csrf\" value=\"k9x8c7v6b5n4\">"}}},
 {"startedDateTime": "2024-01-01T00:00:00.060Z", "time": 5, "_resourceType": "script",
  "request": {"method": "GET", "url": "http://shop.test/app.js", "headers": []},
  "response": {"status": 200, "headers": [], "content": {"mimeType": "application/javascript", "text": ""}}},
 {"startedDateTime": "2024-01-01T00:00:00.070Z", "time": 5, "_resourceType": "xhr",
  "request": {"method": "GET", "url": "https://tracker.example/t", "headers": []},
  "response": {"status": 204, "headers": [], "content": {}}},
 {"startedDateTime": "2024-01-01T00:00:02.100Z", "time": 20, "_resourceType": "fetch",
  "request": {"method": "POST", "url": "http://shop.test/login", "headers": [{"name": "Content-Type", "value": "application/json"}, {"name": "User-Agent", "value": "UA"}, {"name": "X-CSRF", "value": "k9x8c7v6b5n4"}],
              "postData": {"mimeType": "application/json", "text": "{\"user\": \"ann\"}"}},
  "response": {"status": 200, "headers": [{"name": "X-Session", "value": "sess-77f3a2b1c9d8"}], "content": {"mimeType": "application/json", "text": "{\"data\": {\"token\": \"tok-5f4e3d2c1b0a9988\", \"id\": 4711}}"}}},
 {"startedDateTime": "2024-01-01T00:00:02.150Z", "time": 10, "_resourceType": "fetch",
  "request": {"method": "GET", "url": "http://shop.test/old/4711", "headers": [{"name": "Authorization", "value": "Bearer tok-5f4e3d2c1b0a9988"}, {"name": "User-Agent", "value": "UA"}, {"name": "X-S", "value": "sess-77f3a2b1c9d8"}]},
  "response": {"status": 302, "redirectURL": "/new/4711", "headers": [], "content": {}}},
 {"startedDateTime": "2024-01-01T00:00:02.170Z", "time": 10, "_resourceType": "fetch",
  "request": {"method": "GET", "url": "http://shop.test/new/4711", "headers": [{"name": "User-Agent", "value": "UA"}]},
  "response": {"status": 404, "headers": [], "content": {"mimeType": "application/json", "text": "{}"}}}
]}}`

func TestImportHAR(t *testing.T) {
	tst, out := render(t, synthetic, DefaultOptions())
	for _, w := range []string{
		`base_url: '{{ env("BASE_URL", "http://shop.test") }}'`,
		"User-Agent: UA",                // the same on every request: hoisted
		"Cookie: 'old=1'",               // not set by the recording: sent as recorded
		"- think: '2.05s'",              // the pause before the login
		"x_csrf: {regex: ",              // a value from the page's HTML
		"X-CSRF: '{{ x_csrf }}'",        // sent back
		"token: {json: '$.data.token'}", // from the login's JSON
		"id: {json: '$.data.id'}",
		"x_session: {header: X-Session}",
		"Authorization: 'Bearer {{ token }}'",
		"X-S: '{{ x_session }}'",
		"get: '/old/{{ id }}'",
		"- {status: 404}", // the redirect's final answer, one request in loadlens
		"expect_status: 404",
	} {
		if !strings.Contains(out, w) {
			t.Errorf("lacks %q:\n%s", w, out)
		}
	}
	for _, w := range []string{"app.js", "'https://tracker.example", "sec-fetch", "/new/4711", "Cookie: 'old=1; sid"} {
		if strings.Contains(out, w) {
			t.Errorf("has %q:\n%s", w, out)
		}
	}
	notes := strings.Join(tst.NotConverted, "\n")
	if !strings.Contains(notes, "1 static asset (") || !strings.Contains(notes, "1 request to tracker.example") {
		t.Errorf("not converted: %s", notes)
	}
}

// TestImportHARCountsInWords: the import's notes word each count with its
// noun, singular for one (units.CountOf), not "1 requests".
func TestImportHARCountsInWords(t *testing.T) {
	one := `{"log": {"entries": [
 {"startedDateTime": "2024-01-01T00:00:00Z", "request": {"method": "GET", "url": "http://shop.test/"}, "response": {"status": 200}},
 {"startedDateTime": "2024-01-01T00:00:01Z", "request": {"method": "GET", "url": "http://shop.test/a.png"}, "response": {"status": 200}},
 {"startedDateTime": "2024-01-01T00:00:01Z", "request": {"method": "GET", "url": "http://shop.test/b"}, "response": {"status": 0}}]}}`
	for _, c := range []struct {
		name, har string
		want      []string
	}{
		{"one of each", one, []string{"1 request of the recording, in order", "1 static asset (", "1 request the browser did not complete"}},
		{"several", synthetic, []string{"3 requests of the recording, in order"}},
	} {
		tst, _ := render(t, c.har, DefaultOptions())
		all := strings.Join(append(tst.Notes, tst.NotConverted...), "\n")
		for _, w := range c.want {
			if !strings.Contains(all, w) {
				t.Errorf("%s: lacks %q:\n%s", c.name, w, all)
			}
		}
	}
}

func TestImportHAROptions(t *testing.T) {
	opt := DefaultOptions()
	opt.KeepStatic = true
	opt.Hosts = []string{"tracker.example"}
	opt.Exclude = []*regexp.Regexp{regexp.MustCompile(`/login$`)}
	opt.MaxThink = time.Second
	_, out := render(t, synthetic, opt)
	for _, w := range []string{"get: /app.js", "'https://tracker.example/t'", "think: '1s'"} {
		if !strings.Contains(out, w) {
			t.Errorf("lacks %q:\n%s", w, out)
		}
	}
	if strings.Contains(out, "/login") {
		t.Errorf("--exclude kept /login:\n%s", out)
	}
}

func TestImportHARErrors(t *testing.T) {
	for _, c := range []struct{ har, want string }{
		{"not json", "not a HAR file"},
		{`{"log": {"entries": []}}`, "no requests"},
		{`{"log": {"entries": [{"startedDateTime": "2024-01-01T00:00:00Z", "request": {"method": "GET", "url": "http://h/a.png"}, "response": {"status": 200}}]}}`, "every request of the recording was left out"},
	} {
		if _, err := Import(strings.NewReader(c.har), "x.har", DefaultOptions()); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.har, err, c.want)
		}
	}
}

// TestImportChromiumRecording imports the demo shop session that headless
// Chromium recorded (testdata/har/capture.sh).
func TestImportChromiumRecording(t *testing.T) {
	f, err := os.ReadFile("../testdata/har/demo-shop.har")
	if err != nil {
		t.Fatal(err)
	}
	_, out := render(t, string(f), DefaultOptions())
	for _, w := range []string{"made by Playwright", "token: {json: '$.token'}", "Authorization: 'Bearer {{ token }}'", "get: '/products/{{ id }}'", "- {status: 201}"} {
		if !strings.Contains(out, w) {
			t.Errorf("lacks %q:\n%s", w, out)
		}
	}
	if strings.Contains(out, "static/app.js") {
		t.Errorf("the static asset was kept:\n%s", out)
	}
}

// TestImportHARConditionalAndBOM: a recording made with a warm cache keeps
// the conditional headers of its 304 answers, so that replaying them gets
// the 304 its check expects (every check failed on mitmproxy's chrome.har);
// a 200's are still dropped; and a recording that starts with a UTF-8 byte
// order mark is read.
func TestImportHARConditionalAndBOM(t *testing.T) {
	const har = "\xef\xbb\xbf" + `{"log": {"entries": [
 {"startedDateTime": "2024-01-01T00:00:00.000Z", "time": 5, "_resourceType": "fetch",
  "request": {"method": "GET", "url": "http://shop.test/api/a", "headers": [{"name": "If-None-Match", "value": "\"v1\""}, {"name": "If-Modified-Since", "value": "Mon, 01 Jan 2024 00:00:00 GMT"}]},
  "response": {"status": 304, "headers": [], "content": {}}},
 {"startedDateTime": "2024-01-01T00:00:00.010Z", "time": 5, "_resourceType": "fetch",
  "request": {"method": "GET", "url": "http://shop.test/api/b", "headers": [{"name": "If-None-Match", "value": "\"v2\""}]},
  "response": {"status": 200, "headers": [], "content": {}}}]}}`
	_, out := render(t, har, Options{})
	a, b, _ := strings.Cut(out, "/api/b")
	if !strings.Contains(a, `If-None-Match: '"v1"'`) || !strings.Contains(a, "If-Modified-Since: 'Mon, 01 Jan 2024 00:00:00 GMT'") || !strings.Contains(a, "status: 304") {
		t.Errorf("the 304's conditional headers and check are not kept:\n%s", out)
	}
	if strings.Contains(b, `"v2"`) {
		t.Errorf("a 200's conditional header is kept:\n%s", out)
	}
}
