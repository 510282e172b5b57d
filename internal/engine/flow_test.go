package engine

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/plan"
)

// shop answers a journey's requests and keeps what it was asked, in order.
type shop struct {
	mu  sync.Mutex
	log []string
}

func (s *shop) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	entry := r.Method + " " + r.URL.RequestURI()
	if len(body) > 0 {
		entry += " " + string(body)
	}
	s.mu.Lock()
	s.log = append(s.log, entry)
	s.mu.Unlock()
	switch r.URL.Path {
	case "/items":
		fmt.Fprint(w, `{"items": [{"id": 11}, {"name": "no id"}, {"id": 12}, {"id": 13}, {"id": 14}]}`)
	case "/cart":
		fmt.Fprintf(w, `{"size": %s}`, r.URL.Query().Get("n"))
	case "/missing":
		w.WriteHeader(http.StatusNotFound)
	default:
		fmt.Fprint(w, `{"token": "t"}`)
	}
}

func (s *shop) requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.log...)
}

// journeyTest is a user journey written with every control-flow step but
// choose: each iteration's requests follow from the answers.
const journeyTest = `base_url: %s
scenarios:
  shop:
    iterations: 2
    vus: 1
    vu_vars: {user: "u{{ vu }}"}
    flow:
      - group: login
        steps:
          - post: /login
            body: "{{ user }}"
            extract: {token: {json: $.token}}
      - get: /items
        extract: {items: {json: $.items}}
      - for_each: items
        as: id
        path: $.id
        max: 3
        steps: [get: "/items/{{ id }}"]
      - set: {page: "p{{ iteration }}"}
      - repeat: 2
        steps: [get: "/page/{{ page }}"]
      - get: "/cart?n={{ iteration }}"
        extract: {size: {json: $.size}}
      - unless: {var: size, lte: 0}
        then: [post: /checkout]
        else: [get: /missing]
      - if: {status: 404}
        then: [get: /after-404]
      - if: {checks: failed}
        then: [get: /never]
`

func TestFlowControl(t *testing.T) {
	for _, c := range clients() {
		t.Run(c.name, func(t *testing.T) {
			s := &shop{}
			srv := httptest.NewServer(s)
			defer srv.Close()
			p, err := plan.Parse("t.yaml", []byte(fmt.Sprintf(journeyTest, srv.URL)), nil)
			if err != nil {
				t.Fatal(err)
			}
			rec, _ := runPlan(t, p, c.opts)
			iteration := func(n int, end ...string) []string {
				return append([]string{"POST /login u1", "GET /items", "GET /items/11", "GET /items/12", "GET /items/13",
					fmt.Sprintf("GET /page/p%d", n), fmt.Sprintf("GET /page/p%d", n), fmt.Sprintf("GET /cart?n=%d", n)}, end...)
			}
			want := append(iteration(0, "GET /missing", "GET /after-404"), iteration(1, "POST /checkout")...)
			if got := s.requests(); strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("requests:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			if n := len(rec.groups[0]); n != 2 {
				t.Errorf("group login recorded %d times, want 2 (once per iteration)", n)
			}
			if rec.iterations != 2 {
				t.Errorf("%d iterations recorded, want 2", rec.iterations)
			}
		})
	}
}

func TestFlowChoose(t *testing.T) {
	s := &shop{}
	srv := httptest.NewServer(s)
	defer srv.Close()
	src := fmt.Sprintf(`base_url: %s
scenarios:
  s:
    iterations: 400
    vus: 2
    flow:
      - choose:
          - {weight: 3, steps: [get: /a]}
          - {weight: 1, steps: [get: /b]}
`, srv.URL)
	p, err := plan.Parse("t.yaml", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	runPlan(t, p, Options{})
	a, b := 0, 0
	for _, r := range s.requests() {
		switch r {
		case "GET /a":
			a++
		case "GET /b":
			b++
		}
	}
	// 3:1 over 400 picks: b is 100 ± 8.7 (one sigma); 50..150 fails once in ~10^8 runs.
	if a+b != 400 || b < 50 || b > 150 {
		t.Errorf("choose sent %d /a and %d /b of 400, want about 300 and 100", a, b)
	}
}

func TestGroupStartsWithItsLateRequest(t *testing.T) {
	now := time.Unix(1000, 0)
	for _, tc := range []struct {
		name      string
		stepStart time.Time
		want      time.Time
	}{
		{"no pending intended start: now", time.Time{}, now},
		{"a late first request: its intended start", now.Add(-40 * time.Millisecond), now.Add(-40 * time.Millisecond)},
		{"an intended start ahead: now", now.Add(time.Millisecond), now},
	} {
		w := walk{stepStart: tc.stepStart}
		if got := w.groupStart(now); !got.Equal(tc.want) {
			t.Errorf("%s: group starts at %v, want %v", tc.name, got.Sub(now), tc.want.Sub(now))
		}
	}
}
