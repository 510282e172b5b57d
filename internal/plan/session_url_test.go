package plan

import (
	"testing"

	"github.com/loadlens/loadlens/internal/tmpl"
)

// TestSessionURLsJoinAsRequests: ws: and sse: paths join base_url as a
// request's path does, its own path kept (a trial read ws: / with
// BASE_URL=http://127.0.0.1:18431/ws as replacing /ws), whether base_url is
// written or a template of the environment.
func TestSessionURLsJoinAsRequests(t *testing.T) {
	env := func(k string) (string, bool) { return "http://127.0.0.1:18431/ws", k == "BASE_URL" }
	for _, base := range []string{"http://127.0.0.1:18431/ws", "http://127.0.0.1:18431/ws/", `'{{ env("BASE_URL", "http://127.0.0.1:1") }}'`} {
		for _, path := range []string{"/", "/chat", "chat", "/chat?room=1"} {
			src := "base_url: " + base + "\nscenarios:\n  s:\n    vus: 1\n    iterations: 1\n    flow:\n" +
				"      - get: " + path + "\n      - ws: " + path + "\n        max_messages: 1\n      - sse: " + path + "\n        max_events: 1\n"
			p, err := Parse("t.yaml", []byte(src), env)
			if err != nil {
				t.Fatalf("%s %s: %v", base, path, err)
			}
			tc := &tmpl.Context{Vars: make([]string, 8)}
			flow := p.Scenarios[0].Flow
			want := string(flow[0].Request.URL.Render(nil, tc))
			for _, st := range flow[1:] {
				if got := string(st.Session.URL.Render(nil, tc)); got != want {
					t.Errorf("base_url %s, %s: %s: %s, want %s as get: joins it", base, st.Session.Protocol, path, got, want)
				}
			}
			if len(want) < len("http://127.0.0.1:18431/ws/") || want[:len("http://127.0.0.1:18431/ws/")] != "http://127.0.0.1:18431/ws/" {
				t.Errorf("base_url %s, get: %s joins to %s, losing the base's path", base, path, want)
			}
		}
	}
}
