package engine

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/tmpl"
)

// sawHeaders records, per path, the Host and headers the server was sent.
type sawHeaders struct {
	mu    sync.Mutex
	m     map[string]http.Header
	conns int // connections accepted, by every server sharing it
}

// accepted counts each new connection (http.Server.ConnState).
func (s *sawHeaders) accepted(_ net.Conn, state http.ConnState) {
	if state == http.StateNew {
		s.mu.Lock()
		s.conns++
		s.mu.Unlock()
	}
}

func (s *sawHeaders) connections() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.conns
}

func (s *sawHeaders) add(r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	h := r.Header.Clone()
	h.Set("X-Seen-Host", r.Host)
	h.Set("X-Seen-Method", r.Method)
	s.m[r.URL.Path] = h
}

func (s *sawHeaders) get(path string) http.Header {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.m[path]
}

// sameServer is the in-process target of TestBothClientsGiveTheSameSamples,
// over TLS when secure (HTTP/1.1 only, as httptest serves it).
func sameServer(t *testing.T, seen *sawHeaders, secure bool) *httptest.Server {
	mux := http.NewServeMux()
	mux.HandleFunc("/ok", func(w http.ResponseWriter, r *http.Request) { seen.add(r); fmt.Fprint(w, "hello") })
	mux.HandleFunc("/missing", func(w http.ResponseWriter, r *http.Request) { http.NotFound(w, r) })
	mux.HandleFunc("/boom", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "boom", 500) })
	mux.HandleFunc("/echo", func(w http.ResponseWriter, r *http.Request) {
		seen.add(r)
		b, _ := io.ReadAll(r.Body)
		fmt.Fprintf(w, "%s %d %s", r.Method, len(b), b)
	})
	mux.HandleFunc("/empty", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })
	mux.HandleFunc("/chunked", func(w http.ResponseWriter, r *http.Request) {
		for i := range 5 {
			fmt.Fprintf(w, "part %d;", i)
			w.(http.Flusher).Flush()
		}
	})
	mux.HandleFunc("/big", func(w http.ResponseWriter, r *http.Request) { w.Write(make([]byte, 1<<20)) })
	mux.HandleFunc("/redirect/{code}", func(w http.ResponseWriter, r *http.Request) {
		code, _ := strconv.Atoi(r.PathValue("code"))
		http.Redirect(w, r, "/echo", code)
	})
	mux.HandleFunc("/absolute", func(w http.ResponseWriter, r *http.Request) {
		scheme := "http://"
		if r.TLS != nil {
			scheme = "https://"
		}
		http.Redirect(w, r, scheme+r.Host+"/ok", http.StatusMovedPermanently)
	})
	mux.HandleFunc("/chain/{n}", func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(r.PathValue("n"))
		if n == 0 {
			fmt.Fprint(w, "end")
			return
		}
		http.Redirect(w, r, "/chain/"+strconv.Itoa(n-1), http.StatusFound)
	})
	mux.HandleFunc("/loop", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/loop", http.StatusFound) })
	mux.HandleFunc("/login", func(w http.ResponseWriter, r *http.Request) {
		http.SetCookie(w, &http.Cookie{Name: "session", Value: "s1", Path: "/"})
		http.Redirect(w, r, "/me", http.StatusFound)
	})
	mux.HandleFunc("/me", func(w http.ResponseWriter, r *http.Request) {
		if c, err := r.Cookie("session"); err != nil || c.Value != "s1" {
			http.Error(w, "who are you", http.StatusUnauthorized)
			return
		}
		fmt.Fprint(w, "you")
	})
	srv := httptest.NewUnstartedServer(mux)
	srv.Config.ConnState = seen.accepted
	if secure {
		srv.StartTLS()
	} else {
		srv.Start()
	}
	t.Cleanup(srv.Close)
	return srv
}

// TestBothClientsGiveTheSameSamples sends each case through the lean client
// and through net/http, against the same server, over http and over https:
// the samples must agree on status, kind, message, bytes on the wire (TLS
// records and handshake included), redirects and truncation.
func TestBothClientsGiveTheSameSamples(t *testing.T) {
	for _, secure := range []bool{false, true} {
		name := "http"
		if secure {
			name = "https"
		}
		t.Run(name, func(t *testing.T) { bothClientsGiveTheSameSamples(t, secure) })
	}
}

func bothClientsGiveTheSameSamples(t *testing.T, secure bool) {
	seen := &sawHeaders{m: map[string]http.Header{}}
	srv := sameServer(t, seen, secure)
	other := sameServer(t, seen, secure)
	otherURL := strings.Replace(other.URL, "127.0.0.1", "localhost", 1) // another host name, the same machine
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, otherURL+"/ok", http.StatusFound) })
	away := httptest.NewUnstartedServer(mux)
	away.Config.ConnState = seen.accepted
	if secure {
		away.StartTLS()
	} else {
		away.Start()
	}
	defer away.Close()

	step := func(method, path string, edit func(r *plan.Request)) plan.Step {
		s := get(srv.URL + path)
		s.Request.Method = method
		if edit != nil {
			edit(s.Request)
		}
		return s
	}
	body := func(b string) func(r *plan.Request) {
		return func(r *plan.Request) {
			r.Body = tmpl.Literal(b)
			r.Headers = append(r.Headers, hdr("Content-Type", "application/json"))
		}
	}
	cases := []struct {
		name      string
		step      plan.Step
		allow     []string
		status    int
		kind      sample.Kind
		redirects int32
		check     func(t *testing.T) // what the server saw
	}{
		{name: "GET 200", step: step("GET", "/ok", nil), status: 200},
		{name: "404", step: step("GET", "/missing", nil), status: 404, kind: sample.HTTP4xx},
		{name: "500", step: step("GET", "/boom", nil), status: 500, kind: sample.HTTP5xx},
		{name: "POST with a JSON body", step: step("POST", "/echo", body(`{"a":1}`)), status: 200},
		{name: "PUT without a body", step: step("PUT", "/echo", nil), status: 200},
		{name: "DELETE without a body", step: step("DELETE", "/echo", nil), status: 200},
		{name: "HEAD", step: step("HEAD", "/ok", nil), status: 200},
		{name: "204", step: step("GET", "/empty", nil), status: 204},
		{name: "chunked body", step: step("GET", "/chunked", nil), status: 200},
		{name: "1 MiB body", step: step("GET", "/big", nil), status: 200},
		{name: "body past max_body", step: step("GET", "/big", func(r *plan.Request) { r.NeedBody, r.MaxBody = true, 1000 }), status: 200},
		{name: "custom headers", step: step("GET", "/ok", func(r *plan.Request) {
			r.Headers = append(r.Headers, hdr("X-A", "1"), hdr("X-Long-Header-Name", strings.Repeat("v", 300)))
		}), status: 200, check: func(t *testing.T) {
			if h := seen.get("/ok"); h.Get("X-A") != "1" || len(h.Get("X-Long-Header-Name")) != 300 {
				t.Errorf("the server saw %v", h)
			}
		}},
		{name: "Host and User-Agent set by the test", step: step("GET", "/ok", func(r *plan.Request) {
			r.Headers = append(r.Headers, hdr("Host", "shop.example"), hdr("User-Agent", "k6-like/1.0"))
		}), status: 200, check: func(t *testing.T) {
			if h := seen.get("/ok"); h.Get("X-Seen-Host") != "shop.example" || h.Get("User-Agent") != "k6-like/1.0" {
				t.Errorf("the server saw Host %q, User-Agent %q", h.Get("X-Seen-Host"), h.Get("User-Agent"))
			}
		}},
		{name: "a Content-Length set by the test is the engine's", step: step("POST", "/echo", func(r *plan.Request) {
			body(`{"a":1}`)(r)
			r.Headers = append(r.Headers, hdr("Content-Length", "999"), hdr("Transfer-Encoding", "chunked"))
		}), status: 200}, // with the test's length the server would wait for 999 bytes, and time out
		{name: "default User-Agent", step: step("GET", "/ok", nil), status: 200, check: func(t *testing.T) {
			if ua := seen.get("/ok").Get("User-Agent"); ua != "loadlens" {
				t.Errorf("User-Agent %q", ua)
			}
		}},
		{name: "302 to a relative location", step: step("GET", "/redirect/302", nil), status: 200, redirects: 1},
		{name: "301 to an absolute location", step: step("GET", "/absolute", nil), status: 200, redirects: 1},
		{name: "303 after a POST continues as GET without the body", step: step("POST", "/redirect/303", body(`{"a":1}`)), status: 200, redirects: 1,
			check: func(t *testing.T) {
				if h := seen.get("/echo"); h.Get("X-Seen-Method") != "GET" || h.Get("Content-Type") != "application/json" {
					t.Errorf("after a 303 the server saw %v", h)
				}
			}},
		{name: "307 repeats the POST with its body", step: step("POST", "/redirect/307", body(`{"a":1}`)), status: 200, redirects: 1,
			check: func(t *testing.T) {
				if h := seen.get("/echo"); h.Get("X-Seen-Method") != "POST" {
					t.Errorf("after a 307 the server saw %v", h)
				}
			}},
		{name: "308 repeats the PUT", step: step("PUT", "/redirect/308", body(`{"b":2}`)), status: 200, redirects: 1},
		{name: "redirects: 0 makes the 302 the answer", step: step("GET", "/redirect/302", func(r *plan.Request) { r.MaxRedirects = 0 }), status: 302},
		{name: "a chain within the limit", step: step("GET", "/chain/3", func(r *plan.Request) { r.MaxRedirects = 3 }), status: 200, redirects: 3},
		{name: "a chain past the limit", step: step("GET", "/chain/4", func(r *plan.Request) { r.MaxRedirects = 3 }), status: 302, kind: sample.Redirect, redirects: 3},
		{name: "a loop", step: step("GET", "/loop", nil), status: 302, kind: sample.Redirect},
		{name: "a host the test does not name", step: get(away.URL + "/x"), status: 302, kind: sample.Redirect},
		{name: "a host allow_hosts names", step: get(away.URL + "/x"), allow: []string{"localhost"}, status: 200, redirects: 1},
		{name: "a cookie set by a redirect", step: step("GET", "/login", nil), status: 200, redirects: 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got [2]sample.Request
			var conns [2]int
			for i, cl := range clients() {
				before := seen.connections()
				s := scenario(plan.Load{Model: plan.Iterations, VUCount: 1, Count: 1, MaxDuration: time.Minute}, c.step)
				rec, _ := runPlan(t, &plan.Plan{Scenarios: []*plan.Scenario{s}, AllowHosts: c.allow, Insecure: secure}, cl.opts)
				if len(rec.reqs) != 1 {
					t.Fatalf("%s: %d samples", cl.name, len(rec.reqs))
				}
				got[i], conns[i] = rec.reqs[0], seen.connections()-before
				q := got[i]
				if q.Status != c.status || q.Kind != c.kind || q.Redirects != c.redirects {
					t.Fatalf("%s: status %d, kind %v, %d redirects (%s); want %d, %v, %d", cl.name, q.Status, q.Kind, q.Redirects, q.Err, c.status, c.kind, c.redirects)
				}
				if c.check != nil {
					c.check(t)
				}
			}
			a, b := got[0], got[1]
			// net/http reuses a connection for a redirect only once its
			// writer reported the request written, waiting 50 ms at most
			// (maxWriteWaitBeforeConnReuse): on a busy host it dials again,
			// and over TLS a second handshake's bytes are rightly counted
			sameWire := conns[0] == conns[1]
			if !sameWire {
				t.Logf("lean used %d connections, net/http %d: bytes not compared (%d/%d sent, %d/%d received)",
					conns[0], conns[1], a.Sent, b.Sent, a.Received, b.Received)
			}
			if a.Status != b.Status || a.Kind != b.Kind || a.Err != b.Err || sameWire && (a.Sent != b.Sent || a.Received != b.Received) ||
				a.Redirects != b.Redirects || a.Truncated != b.Truncated {
				t.Fatalf("the clients disagree:\n lean     %+v\n net/http %+v", a, b)
			}
			if a.Sent == 0 || a.Received == 0 {
				t.Fatalf("no bytes counted: %+v", a)
			}
			if secure && (a.TLS <= 0 || b.TLS <= 0) {
				t.Fatalf("no TLS handshake timed: lean %v, net/http %v", a.TLS, b.TLS)
			}
		})
	}
}
