package engine

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/sample"
)

// statusesBy records the statuses the server answered per path.
type statusesBy struct {
	mu sync.Mutex
	m  map[string]map[int]int
}

func (s *statusesBy) add(path string, status int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m[path] == nil {
		s.m[path] = map[int]int{}
	}
	s.m[path][status]++
}

func TestCookiesLiveForAnIteration(t *testing.T) {
	seen := &statusesBy{m: map[string]map[int]int{}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /login", func(w http.ResponseWriter, r *http.Request) {
		http.SetCookie(w, &http.Cookie{Name: "SESSION", Value: "abc", Path: "/"})
		http.SetCookie(w, &http.Cookie{Name: "theme", Value: "dark"})
		seen.add("/login", 200)
	})
	mux.HandleFunc("GET /me", func(w http.ResponseWriter, r *http.Request) {
		c, err := r.Cookie("SESSION")
		if err != nil || c.Value != "abc" {
			seen.add("/me", 401)
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		seen.add("/me", 200)
	})
	mux.HandleFunc("GET /logout", func(w http.ResponseWriter, r *http.Request) {
		http.SetCookie(w, &http.Cookie{Name: "SESSION", MaxAge: -1})
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	for _, c := range []struct {
		name string
		opts Options
	}{{"lean client", Options{}}, {"net/http", Options{NetHTTPOnly: true}}} {
		t.Run(c.name, func(t *testing.T) {
			seen.m = map[string]map[int]int{}
			// each iteration starts without cookies, logs in, is known, logs out, is not
			s := scenario(plan.Load{Model: plan.Iterations, VUCount: 2, Count: 6, MaxDuration: time.Minute},
				get(srv.URL+"/me"), get(srv.URL+"/login"), get(srv.URL+"/me"), get(srv.URL+"/logout"), get(srv.URL+"/me"))
			p := &plan.Plan{Scenarios: []*plan.Scenario{s}}
			if err := New(p, newTestRecorder(), c.opts).Run(t.Context()); err != nil {
				t.Fatal(err)
			}
			if got := seen.m["/me"]; got[200] != 6 || got[401] != 12 {
				t.Fatalf("/me answered %v; want 6 × 200 (after login) and 12 × 401 (before login and after logout)", got)
			}
		})
	}
}

func TestRedirectsAreFollowed(t *testing.T) {
	var hits sync.Map
	mux := http.NewServeMux()
	count := func(p string) { v, _ := hits.LoadOrStore(p, new(int)); *(v.(*int))++ }
	mux.HandleFunc("/old", func(w http.ResponseWriter, r *http.Request) {
		count("/old")
		http.Redirect(w, r, "/new?x=1", http.StatusFound)
	})
	mux.HandleFunc("/new", func(w http.ResponseWriter, r *http.Request) { count("/new " + r.Method); fmt.Fprint(w, "new") })
	mux.HandleFunc("POST /form", func(w http.ResponseWriter, r *http.Request) {
		count("/form")
		http.Redirect(w, r, "/new", http.StatusSeeOther)
	})
	mux.HandleFunc("/loop", func(w http.ResponseWriter, r *http.Request) {
		count("/loop")
		http.Redirect(w, r, "/loop", http.StatusFound)
	})
	mux.HandleFunc("/away", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "https://example.invalid/", http.StatusMovedPermanently)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	post := get(srv.URL + "/form")
	post.Request.Method = "POST"
	cases := []struct {
		name       string
		step       plan.Step
		wantStatus int
		wantKind   sample.Kind
		wantHits   map[string]int
	}{
		{"302 to a relative location", get(srv.URL + "/old"), 200, sample.OK, map[string]int{"/old": 1, "/new GET": 1}},
		{"303 after a POST becomes a GET", post, 200, sample.OK, map[string]int{"/form": 1, "/new GET": 1}},
		{"a loop is a redirect failure, found before it is sent again", get(srv.URL + "/loop"), 302, sample.Redirect, map[string]int{"/loop": 1}},
		{"a redirect to a host the test does not name is refused", get(srv.URL + "/away"), 301, sample.Redirect, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			hits = sync.Map{}
			rec, err := run(t, plan.Whole, scenario(plan.Load{Model: plan.Iterations, VUCount: 1, Count: 1, MaxDuration: time.Minute}, c.step))
			if err != nil {
				t.Fatal(err)
			}
			if len(rec.reqs) != 1 || rec.reqs[0].Status != c.wantStatus || rec.reqs[0].Kind != c.wantKind {
				t.Fatalf("recorded %+v, want one sample with status %d, kind %v", rec.reqs, c.wantStatus, c.wantKind)
			}
			for p, n := range c.wantHits {
				v, _ := hits.Load(p)
				if got, _ := v.(*int); got == nil || *got != n {
					t.Errorf("%s hit %v times, want %d", p, v, n)
				}
			}
		})
	}
}
