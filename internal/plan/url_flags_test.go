package plan

import (
	"slices"
	"strings"
	"testing"
	"time"
)

func TestFromURLEnvTemplates(t *testing.T) {
	env := func(k string) (string, bool) {
		v, ok := map[string]string{"P": "items", "K": "v4lue", "B": "b0dy"}[k]
		return v, ok
	}
	p, err := FromURL(URLOptions{URL: "http://h/{{ env.P }}/1", Headers: []string{"X-K: key {{ env.K }}"}, Body: `{"b": "{{ env.B }}"}`, Env: env})
	if err != nil {
		t.Fatal(err)
	}
	r := req(t, p, 0, 0)
	if got := render(r.URL); got != "http://h/items/1" {
		t.Errorf("URL %q", got)
	}
	if got := headerMap(r)["X-K"]; got != "key v4lue" {
		t.Errorf("header %q", got)
	}
	if got := render(r.Body); got != `{"b": "b0dy"}` {
		t.Errorf("body %q", got)
	}
	for _, v := range []string{"items", "v4lue", "b0dy"} {
		if strings.Contains(string(p.Source), v) {
			t.Errorf("the source holds the value %q of an env template:\n%s", v, p.Source)
		}
	}
	if _, err := FromURL(URLOptions{URL: "http://h/{{ env.NOPE }}", Env: env}); err == nil ||
		err.Error() != `URL: environment variable NOPE is not set (use env("NOPE", "default") for a default)` {
		t.Errorf("unset variable: %v", err)
	}
}

func TestFromURLGracefulStopAndLimits(t *testing.T) {
	zero, two := time.Duration(0), 2
	tests := []struct {
		name  string
		o     URLOptions
		check func(t *testing.T, p *Plan)
	}{
		{"default graceful stop", URLOptions{URL: "http://h/"}, func(t *testing.T, p *Plan) {
			if g := p.Scenarios[0].GracefulStop; g != 5*time.Second {
				t.Errorf("graceful stop %v, want 5s", g)
			}
		}},
		{"graceful stop no longer than the timeout", URLOptions{URL: "http://h/", Timeout: 2 * time.Second}, func(t *testing.T, p *Plan) {
			if g := p.Scenarios[0].GracefulStop; g != 2*time.Second {
				t.Errorf("graceful stop %v, want 2s", g)
			}
		}},
		{"graceful stop 0", URLOptions{URL: "http://h/", GracefulStop: &zero}, func(t *testing.T, p *Plan) {
			if g := p.Scenarios[0].GracefulStop; g != 0 {
				t.Errorf("graceful stop %v, want 0", g)
			}
		}},
		{"redirects, body cap and hosts", URLOptions{URL: "http://h:8080/", MaxRedirects: &two, MaxBody: "64KiB", AllowHosts: []string{"Auth.example.com", "127.0.0.1:9000"}},
			func(t *testing.T, p *Plan) {
				if r := req(t, p, 0, 0); r.MaxRedirects != 2 || r.MaxBody != 64<<10 {
					t.Errorf("redirects %d, max body %d", r.MaxRedirects, r.MaxBody)
				}
				if want := []string{"h:8080", "auth.example.com", "127.0.0.1:9000"}; !slices.Equal(p.AllowHosts, want) {
					t.Errorf("AllowHosts %q, want %q", p.AllowHosts, want)
				}
			}},
		{"spaces percent-encoded outside templates", URLOptions{URL: "http://h/a b/{{ pick(\"x y\") }}?q=c d"}, func(t *testing.T, p *Plan) {
			if got := render(req(t, p, 0, 0).URL); got != "http://h/a%20b/x y?q=c%20d" {
				t.Errorf("URL %q", got)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := FromURL(tt.o)
			if err != nil {
				t.Fatal(err)
			}
			tt.check(t, p)
			again, err := Parse("", p.Source, nil)
			if err != nil {
				t.Fatalf("the source does not parse again: %v\n%s", err, p.Source)
			}
			if again.Scenarios[0].GracefulStop != p.Scenarios[0].GracefulStop {
				t.Error("the source does not keep the graceful stop")
			}
		})
	}
}
