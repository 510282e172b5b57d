package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/loadlens/loadlens/internal/plan"
)

// couponServer hands out coupons; with overIssue it issues one even when
// none is left, the bug a check against the stock must catch.
func couponServer(t *testing.T, overIssue bool) *httptest.Server {
	var mu sync.Mutex
	var stock, issued int
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		switch r.URL.Path {
		case "/reset":
			fmt.Sscan(r.URL.Query().Get("count"), &stock)
			issued = 0
		case "/issue":
			if issued >= stock && !overIssue {
				w.WriteHeader(http.StatusConflict)
				return
			}
			issued++
			w.WriteHeader(http.StatusCreated)
		case "/stats":
			json.NewEncoder(w).Encode(map[string]any{"issued": issued, "available": stock, "state": "open", "label": "fifty"})
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestChecksCompareWithValuesOfTheRun: a check compares with a variable
// extracted earlier, with env(), or with another value of the same body;
// an over-issuing server fails the checks against the stock, a correct
// one passes them, and a rendered value that is no number fails its check
// with one notice while the run goes on.
func TestChecksCompareWithValuesOfTheRun(t *testing.T) {
	const src = `base_url: %s
scenarios:
  s:
    iterations: 2
    vus: 1
    flow:
      - post: /reset?count=2
      - get: /stats
        extract: {available: {json: $.available}, label: {json: $.label}, state: {json: $.state}}
      - post: /issue
      - post: /issue
      - post: /issue
      - get: /stats
        check:
          - {name: variable, json: $.issued, lte: "{{ available }}"}
          - {name: path, json: $.issued, lte: {json: $.available}}
          - {name: env, json: $.issued, lt: '{{ env("LL_TEST_COUPON_CAP", "10") }}'}
          - {name: at least, json: $.issued, gte: "{{ available }}"}
          - {name: string, json: $.state, eq: "{{ state }}"}
          - {name: not a number, json: $.issued, lte: "{{ label }}"}
          - {name: no field, json: $.issued, lte: {json: $.missing}}
`
	for _, tc := range []struct {
		name      string
		overIssue bool
		pass      []string // checks that pass every time; the others fail every time
	}{
		{"over-issuing server", true, []string{"env", "at least", "string"}},
		{"correct server", false, []string{"variable", "path", "env", "at least", "string"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := couponServer(t, tc.overIssue)
			p, err := plan.Parse("t.yaml", []byte(fmt.Sprintf(src, srv.URL)), func(string) (string, bool) { return "", false })
			if err != nil {
				t.Fatal(err)
			}
			var mu sync.Mutex
			var notes []string
			rec := newTestRecorder()
			opts := Options{Notify: func(m string) { mu.Lock(); notes = append(notes, m); mu.Unlock() }}
			if err := New(p, rec, opts).Run(context.Background()); err != nil {
				t.Fatal(err)
			}
			for id, c := range p.Layout.Checks {
				if strings.HasPrefix(c.Name, "extract ") {
					continue
				}
				want := map[bool]int{true: 2, false: 0}
				passes := strings.Contains(","+strings.Join(tc.pass, ",")+",", ","+c.Name+",")
				if got := rec.passes[int32(id)]; got != want[passes] || rec.fails[int32(id)] != want[!passes] {
					t.Errorf("check %q passed %d and failed %d times; want %d passes of 2", c.Name, got, rec.fails[int32(id)], want[passes])
				}
			}
			wantNotes := []string{
				`check "not a number" (GET /stats): it compares with "fifty", which is not a number. The check fails each time it cannot compare`,
				`check "no field" (GET /stats): the response has no $.missing to compare with. The check fails each time it cannot compare`,
			}
			var got []string
			for _, n := range notes {
				if strings.HasPrefix(n, "check ") {
					got = append(got, n)
				}
			}
			if strings.Join(got, "\n") != strings.Join(wantNotes, "\n") {
				t.Errorf("notices:\n%s\nwant, once each:\n%s", strings.Join(got, "\n"), strings.Join(wantNotes, "\n"))
			}
		})
	}
}
