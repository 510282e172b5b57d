package engine

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/faultserver"
	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/sample"
)

// TestRedirectsToAnotherHost: a redirect to a host the test does not name
// sends it no load; one allow_hosts names gets the load but none of the
// test's credentials or custom headers, on either client.
func TestRedirectsToAnotherHost(t *testing.T) {
	for _, allowed := range []bool{false, true} {
		for _, cl := range clients() {
			t.Run(fmt.Sprintf("allowed=%v/%s", allowed, cl.name), func(t *testing.T) {
				checkLeaks(t)
				other := faultserver.Start(t, faultserver.Record, faultserver.Options{})
				away := strings.Replace(other.URL, "127.0.0.1", "localhost", 1) + "/landing"
				origin := faultserver.Start(t, faultserver.RedirectAway, faultserver.Options{Location: away})
				step := get(origin.URL + "/start")
				step.Request.Headers = []plan.Header{hdr("Authorization", "Bearer s3cret"), hdr("Proxy-Authorization", "Basic eDp5"),
					hdr("Cookie", "session=abc"), hdr("X-Custom", "1")}
				p := &plan.Plan{Scenarios: []*plan.Scenario{scenario(plan.Load{Model: plan.Iterations, VUCount: 2, Count: 10, MaxDuration: time.Minute}, step)}}
				if allowed {
					p.AllowHosts = []string{"localhost"}
				}
				rec, _ := runPlan(t, p, cl.opts)
				if len(rec.reqs) != 10 {
					t.Fatalf("%d samples, want 10", len(rec.reqs))
				}
				if allowed {
					kindsIn(t, rec, sample.OK)
					if other.Requests() != 10 {
						t.Fatalf("the other host received %d requests, want 10", other.Requests())
					}
				} else {
					kindsIn(t, rec, sample.Redirect)
					if other.Requests() != 0 {
						t.Fatalf("the other host received %d requests, want none", other.Requests())
					}
					if msg := rec.reqs[0].Err; !strings.Contains(msg, "allow_hosts") || !strings.Contains(msg, "localhost") {
						t.Fatalf("message %q does not say to add the host to allow_hosts", msg)
					}
				}
				for _, h := range []string{"Authorization", "Proxy-Authorization", "Cookie", "X-Custom"} {
					if n := other.Saw(h); n != 0 {
						t.Errorf("the other host received %s %d times", h, n)
					}
				}
				if got := origin.Requests() + other.Requests(); got != rec.sent() {
					t.Errorf("the servers received %d requests, loadlens counted %d", got, rec.sent())
				}
			})
		}
	}
}

// TestRedirectFromHTTPToHTTPS: the lean client's hop hands over to
// net/http for the https:// one, in the same sample.
func TestRedirectFromHTTPToHTTPS(t *testing.T) {
	secure := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "secure") }))
	defer secure.Close()
	plain := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, secure.URL+"/there", http.StatusMovedPermanently)
	}))
	defer plain.Close()
	for _, cl := range clients() {
		t.Run(cl.name, func(t *testing.T) {
			s := scenario(plan.Load{Model: plan.Iterations, VUCount: 1, Count: 2, MaxDuration: time.Minute}, get(plain.URL+"/here"))
			rec, _ := runPlan(t, &plan.Plan{Scenarios: []*plan.Scenario{s}, Insecure: true}, cl.opts)
			if len(rec.reqs) != 2 {
				t.Fatalf("%d samples", len(rec.reqs))
			}
			for _, q := range rec.reqs {
				if q.Kind != sample.OK || q.Status != 200 || q.Redirects != 1 {
					t.Fatalf("sample %+v, want a 200 after one redirect", q)
				}
			}
			if rec.reqs[0].TLS <= 0 {
				t.Errorf("no TLS handshake timed: %+v", rec.reqs[0])
			}
		})
	}
}

// TestCookieJarFollowsRFC6265 plays faultserver's cookie site on both
// clients: Path scope, Expires and Max-Age in the past or 0, a Domain of
// another site, each iteration starting with an empty jar. (Secure and
// host-only cookies need host names loopback lacks: see jar_test.go.)
func TestCookieJarFollowsRFC6265(t *testing.T) {
	for _, cl := range clients() {
		t.Run(cl.name, func(t *testing.T) {
			srv := faultserver.Start(t, faultserver.Cookies, faultserver.Options{})
			var steps []plan.Step
			for _, p := range []string{"/set", "/public/a", "/private/b", "/expire", "/private/c", "/public/d"} {
				steps = append(steps, get(srv.URL+p))
			}
			s := scenario(plan.Load{Model: plan.Iterations, VUCount: 1, Count: 2, MaxDuration: time.Minute}, steps...)
			rec, _ := runPlan(t, &plan.Plan{Scenarios: []*plan.Scenario{s}}, cl.opts)
			kindsIn(t, rec, sample.OK)
			want := map[string]string{
				"/set":       "", // each iteration starts without cookies
				"/public/a":  "keep=1; brief=1; secure=1",
				"/private/b": "scoped=1; keep=1; brief=1; secure=1",
				"/private/c": "scoped=1; secure=1",
				"/public/d":  "secure=1",
			}
			for path, w := range want {
				got := srv.CookiesAt(path)
				if len(got) != 2 || got[0] != w || got[1] != w {
					t.Errorf("%s was sent cookies %q, want %q in both iterations", path, got, w)
				}
			}
		})
	}
}
