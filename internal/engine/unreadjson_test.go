package engine

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/loadlens/loadlens/internal/plan"
)

// TestUnreadJSONSaysWhy: a JSON check or extraction that fails on a body
// the decoder cannot read is said once, with the cause and the body's
// start (a body nested 10,001 deep failed "$[0][0] exists" with no reason).
func TestUnreadJSONSaysWhy(t *testing.T) {
	deep := strings.Repeat("[", 10001) + strings.Repeat("]", 10001)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/deep":
			fmt.Fprint(w, deep)
		case "/big":
			fmt.Fprint(w, `{"items": [1, 2, 3, 4, 5, 6, 7, 8, 9]}`)
		case "/html":
			fmt.Fprint(w, "<html>oops</html>")
		default:
			fmt.Fprint(w, `{"id": 1}`)
		}
	}))
	defer srv.Close()
	src := `base_url: %s
scenarios:
  s:
    iterations: 3
    vus: 1
    flow:
      - get: /deep
        check: [{json: "$[0][0]", exists: true}]
      - get: /html
        extract: {x: {json: $.x}}
      - get: /ok
        check: [{json: "$.missing", exists: true}]
      - get: /big
        max_body: 10
        check: [{json: "$.items", exists: true}]
`
	p, err := plan.Parse("t.yaml", []byte(fmt.Sprintf(src, srv.URL)), nil)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var notes []string
	rec := newTestRecorder()
	if err := New(p, rec, Options{Notify: func(m string) { mu.Lock(); notes = append(notes, m); mu.Unlock() }}).Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	want := []string{
		`check "$[0][0] exists" (GET /deep): the response body is not JSON the decoder reads: it nests arrays or objects deeper than 10,000 levels, the JSON decoder's limit (Go's encoding/json); the body starts "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[…". The check fails on each such body`,
		`check "extract x" (GET /html): the response body is not JSON the decoder reads: invalid character '<' looking for beginning of value; the body starts "<html>oops</html>". The check fails on each such body`,
	}
	var got []string
	for _, n := range notes {
		if strings.HasPrefix(n, "check ") {
			got = append(got, n)
		}
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("notices:\n%s\nwant (once each; none for a JSON body without the field, nor for one cut at max_body):\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
