package e2e

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/coder/websocket"
)

// TestWSThroughTheBinary runs ws: steps through the real binary against an
// echo server: every session sends its VU's message, waits for its echo
// (until:), and thresholds on the protocol's facts gate the exit code.
func TestWSThroughTheBinary(t *testing.T) {
	var sessions atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		defer c.CloseNow()
		sessions.Add(1)
		for range 100 { // an echo server, bounded
			typ, b, err := c.Read(r.Context())
			if err != nil || c.Write(r.Context(), typ, b) != nil {
				return
			}
		}
	}))
	defer srv.Close()
	dir := t.TempDir()
	test := `name: chat
scenarios:
  chat:
    iterations: 6
    vus: 2
    flow:
      - ws: ws://%s/chat
        timeout: 10s
        send: [{text: '{"from": "vu{{ vu }}"}'}]
        until: {json: $.from, matches: "^vu[0-9]+$"}
thresholds:
  ws_msgs_received: ["%s"]
  ws_reply_time: ["p(95) < 10s"]
`
	for _, tc := range []struct {
		expr string
		code int
	}{{"count == 6", 0}, {"count > 6", 99}} {
		sessions.Store(0)
		os.WriteFile(filepath.Join(dir, "t.yaml"), []byte(fmt.Sprintf(test, strings.TrimPrefix(srv.URL, "http://"), tc.expr)), 0o644)
		res := loadlens(t, dir, "run", "t.yaml", "--quiet", "--results", "results-"+fmt.Sprint(tc.code))
		if res.code != tc.code {
			t.Fatalf("ws_msgs_received %s: exit %d, want %d\n%s%s", tc.expr, res.code, tc.code, res.stdout, res.stderr)
		}
		if sessions.Load() != 6 {
			t.Errorf("the server saw %d sessions, want 6", sessions.Load())
		}
	}
}
