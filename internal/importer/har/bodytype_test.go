package har

import (
	"strings"
	"testing"
)

// TestImportHARBodyType: a body's type given only as postData.mimeType (as
// trial C's rec.har sent POST /api/login) is sent as its Content-Type; a
// recorded header wins; a body written from params is urlencoded.
func TestImportHARBodyType(t *testing.T) {
	for _, tc := range []struct {
		name, headers, postData string
		want                    []string // the POST step's lines
		count                   int      // Content-Type headers in the test
	}{
		{"mimeType alone", `[]`, `{"mimeType": "application/json", "text": "{\"user\":\"a\"}"}`,
			[]string{"- post: /login\n        headers:\n          Content-Type: application/json\n        body: "}, 1},
		{"header recorded", `[{"name": "content-type", "value": "application/json; charset=utf-8"}]`, `{"mimeType": "application/json", "text": "{}"}`,
			[]string{"content-type: 'application/json; charset=utf-8'"}, 1},
		{"params", `[]`, `{"mimeType": "multipart/form-data; boundary=x", "params": [{"name": "a", "value": "1"}]}`,
			[]string{"Content-Type: application/x-www-form-urlencoded", "body: 'a=1'"}, 1},
		{"no type", `[]`, `{"text": "hi"}`, []string{"- post: /login\n        body: hi"}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			har := `{"log": {"creator": {"name": "test", "version": "1"}, "entries": [
 {"startedDateTime": "2024-01-01T00:00:00.000Z", "time": 5, "_resourceType": "document",
  "request": {"method": "GET", "url": "http://shop.test/", "headers": []},
  "response": {"status": 200, "headers": [], "content": {"mimeType": "text/html", "text": "hello"}}},
 {"startedDateTime": "2024-01-01T00:00:00.010Z", "time": 5, "_resourceType": "fetch",
  "request": {"method": "POST", "url": "http://shop.test/login", "headers": ` + tc.headers + `, "postData": ` + tc.postData + `},
  "response": {"status": 201, "headers": [], "content": {"mimeType": "application/json", "text": "{}"}}}]}}`
			_, out := render(t, har, DefaultOptions())
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("lacks %q:\n%s", w, out)
				}
			}
			if n := strings.Count(strings.ToLower(out), "content-type:"); n != tc.count {
				t.Errorf("%d Content-Type headers, want %d:\n%s", n, tc.count, out)
			}
		})
	}
}
