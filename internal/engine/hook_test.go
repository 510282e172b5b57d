package engine

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/loadlens/loadlens/internal/plan"
)

// TestSetupSharedWithEveryVU: the setup's extracted values reach every
// VU of every scenario and the teardown; a failed setup request or check
// is an error naming the request.
func TestSetupSharedWithEveryVU(t *testing.T) {
	s := &shop{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/broken" {
			w.WriteHeader(http.StatusInternalServerError)
		}
		s.ServeHTTP(w, r)
	}))
	defer srv.Close()
	src := `base_url: %s
setup:
  - post: /login
    extract: {token: {json: $.token}}
scenarios:
  s:
    iterations: 4
    vus: 2
    flow: [get: "/work/{{ token }}/{{ vu }}"]
teardown:
  - delete: "/sessions/{{ token }}"
`
	p, err := plan.Parse("t.yaml", []byte(fmt.Sprintf(src, srv.URL)), nil)
	if err != nil {
		t.Fatal(err)
	}
	shared, err := RunHook(context.Background(), p, p.Setup, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	rec := newTestRecorder()
	if err := New(p, rec, Options{Shared: shared.Vars}).Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := RunHook(context.Background(), p, p.Teardown, shared.Vars, Options{}); err != nil {
		t.Fatal(err)
	}
	got := strings.Join(s.requests(), "\n")
	for _, want := range []string{"POST /login", "GET /work/t/1", "GET /work/t/2", "DELETE /sessions/t"} {
		if !strings.Contains(got, want) {
			t.Errorf("the target got no %q:\n%s", want, got)
		}
	}
	if n := len(rec.reqs); n != 4 {
		t.Errorf("%d requests measured, want the scenario's 4 (setup and teardown are not measured)", n)
	}

	for _, tc := range []struct{ hook, want string }{
		{"  - get: /broken\n", "GET " + srv.URL + `/broken: a request failed (http_5xx): 500 Internal Server Error: {"token": "t"}`}, // with what the target said
		{"  - get: /login\n    check: [{json: $.token, eq: other}]\n", "GET " + srv.URL + "/login: a check or extraction failed"},
	} {
		p, err := plan.Parse("t.yaml", []byte(fmt.Sprintf("base_url: %s\nsetup:\n%sscenarios:\n  s: {iterations: 1, flow: [get: /]}\n", srv.URL, tc.hook)), nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := RunHook(context.Background(), p, p.Setup, nil, Options{}); err == nil || err.Error() != tc.want {
			t.Errorf("setup error %v, want %s", err, tc.want)
		}
	}
}

// TestSetupRequestNotSent: a setup request that could not be built fails
// the setup with its reason, which names the step, and nothing before it
// (it has no hop to name: before, "GET http://…: a request failed (other)").
func TestSetupRequestNotSent(t *testing.T) {
	h := &plan.Hook{Flow: []plan.Step{get("http://127.0.0.1:1/a\r\nb")}}
	_, err := RunHook(context.Background(), &plan.Plan{}, h, nil, Options{})
	const want = "not sent: GET http://127.0.0.1:1/a\r\nb has a line break at byte 21 once filled in; "
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("setup error %q, want %q…", err, want)
	}
}
