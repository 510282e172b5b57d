package mock

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestJSONBodyEscapesRequestValues: a body: that answers JSON (it starts
// with { or its Content-Type is JSON) escapes the path parameters and vars
// it inserts, so GET /users/%22,%22admin%22:true,... cannot add a key (it
// once answered {"login": "","admin":true,...}); a login with quotes
// arrives as written; a text body is sent as rendered.
func TestJSONBodyEscapesRequestValues(t *testing.T) {
	const cfg = `
listen: 127.0.0.1:0
routes:
  - get: /users/{login}
    body: '{"login": "{{ login }}", "id": {{ id }}}'
    vars: {id: {query: id}}
  - get: /typed/{login}
    headers: {Content-Type: application/vnd.api+json}
    body: ' "{{ login }}"'
  - get: /text/{login}
    body: 'hello {{ login }}"'
  - post: /echo
    headers: {Content-Type: application/json}
    body: '{{ body }}'
`
	s := startServer(t, cfg)
	base := "http://" + s.Addr()
	for _, tc := range []struct {
		name, path, body, want string
	}{
		{"an injection attempt", `/users/%22,%22admin%22:true,%22x%22:%22?id=7`, "", `{"login": "\",\"admin\":true,\"x\":\"", "id": 7}`},
		{"a login with quotes", `/users/o%22brien%5C?id=7`, "", `{"login": "o\"brien\\", "id": 7}`},
		{"an injection outside a string", `/users/ann?id=1,%22admin%22:true`, "", `{"login": "ann", "id": "1,\"admin\":true"}`},
		{"a +json Content-Type", `/typed/a%22b`, "", ` "a\"b"`},
		{"text as rendered", `/text/a%22b`, "", `hello a"b"`},
		{"a JSON body echoed as it is", `/echo`, `{"a": [1, "x"]}`, `{"a": [1, "x"]}`},
		{"a text body echoed as a JSON string", `/echo`, `a "b"`, `"a \"b\""`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			method := http.MethodGet
			if tc.body != "" {
				method = http.MethodPost
			}
			req, _ := http.NewRequest(method, base+tc.path, strings.NewReader(tc.body))
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if string(b) != tc.want {
				t.Fatalf("%s answered %s, want %s", tc.path, b, tc.want)
			}
			var v map[string]any
			if json.Unmarshal(b, &v) == nil && v["admin"] != nil {
				t.Errorf("the path added a key: %s", b)
			}
		})
	}
}
