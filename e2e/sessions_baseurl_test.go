package e2e

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/coder/websocket"
)

// TestSessionsJoinBaseURLThroughTheBinary: ws: and sse: paths reach the
// server joined to base_url's path (given with -e BASE_URL) as get: paths
// do; a trial read ws: / with BASE_URL=http://127.0.0.1:18431/ws as
// replacing /ws.
func TestSessionsJoinBaseURLThroughTheBinary(t *testing.T) {
	var mu sync.Mutex
	got := map[string][]string{} // by step kind: the paths the server saw
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		kind := r.Header.Get("X-Kind")
		mu.Lock()
		got[kind] = append(got[kind], r.URL.RequestURI())
		mu.Unlock()
		switch kind {
		case "sse":
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprint(w, "data: 1\n\n")
		case "ws":
			c, err := websocket.Accept(w, r, nil)
			if err != nil {
				return
			}
			defer c.CloseNow()
			_ = c.Write(r.Context(), websocket.MessageText, []byte("x"))
			_, _, _ = c.Read(r.Context()) // until the client's close
		}
	}))
	defer srv.Close()
	dir := t.TempDir()
	test := `base_url: '{{ env("BASE_URL", "http://127.0.0.1:1") }}'
scenarios:
  s:
    iterations: 1
    vus: 1
    flow:
`
	for _, path := range []string{"/", "chat", "/chat?room=1"} {
		test += fmt.Sprintf("      - get: %s\n        headers: {X-Kind: get}\n", path)
		test += fmt.Sprintf("      - ws: %s\n        headers: {X-Kind: ws}\n        max_messages: 1\n", path)
		test += fmt.Sprintf("      - sse: %s\n        headers: {X-Kind: sse}\n        max_events: 1\n", path)
	}
	os.WriteFile(filepath.Join(dir, "t.yaml"), []byte(test), 0o644)
	res := loadlens(t, dir, "run", "t.yaml", "--quiet", "--no-dashboard", "--results", "results", "-e", "BASE_URL="+srv.URL+"/ws")
	if res.code != 0 {
		t.Fatalf("exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	want := []string{"/ws/", "/ws/chat", "/ws/chat?room=1"}
	for _, kind := range []string{"get", "ws", "sse"} {
		if !slices.Equal(got[kind], want) {
			t.Errorf("%s: steps reached %v, want %v", kind, got[kind], want)
		}
	}
}
