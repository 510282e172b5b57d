package e2e

import (
	"bytes"
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

// TestWSBinaryAndRepliesThroughTheBinary: a ws: step sends a binary
// message written in hex, answers the server's ping with a pong carrying
// the ping's id (reply: with extract:), checks a binary message by its
// size, and ends at "done"; the server counts the sessions that
// did all of it. A payload that is not hex is refused before the run, at
// its line.
func TestWSBinaryAndRepliesThroughTheBinary(t *testing.T) {
	var good atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		defer c.CloseNow()
		ctx := r.Context()
		typ, b, err := c.Read(ctx)
		if err != nil || typ != websocket.MessageBinary || !bytes.Equal(b, []byte{0xca, 0xfe, 0x00}) {
			return
		}
		id := fmt.Sprintf("id-%p", c)
		if c.Write(ctx, websocket.MessageBinary, []byte{0xbe, 0xef}) != nil ||
			c.Write(ctx, websocket.MessageText, []byte(`{"type": "ping", "id": "`+id+`"}`)) != nil {
			return
		}
		typ, b, err = c.Read(ctx)
		if err != nil || typ != websocket.MessageText || string(b) != `{"type": "pong", "id": "`+id+`"}` {
			return
		}
		good.Add(1)
		_ = c.Write(ctx, websocket.MessageText, []byte("done"))
		_, _, _ = c.Read(ctx) // the client's close
	}))
	defer srv.Close()
	dir := t.TempDir()
	test := `name: binary
scenarios:
  chat:
    iterations: 4
    vus: 2
    flow:
      - ws: ws://%s/chat
        timeout: 10s
        send: [{hex: "%s"}]
        reply:
          - on: {json: $.type, eq: ping}
            extract: {id: {json: $.id}}
            text: '{"type": "pong", "id": "{{ id }}"}'
        until: {body_contains: done}
        check:
          - size: {lte: 64}
thresholds:
  checks: ["rate == 1"]
  ws_msgs_sent: ["count == 8"]
`
	host := strings.TrimPrefix(srv.URL, "http://")
	os.WriteFile(filepath.Join(dir, "t.yaml"), []byte(fmt.Sprintf(test, host, "ca fe 00")), 0o644)
	res := loadlens(t, dir, "run", "t.yaml", "--quiet")
	if res.code != 0 || good.Load() != 4 {
		t.Fatalf("exit %d, %d of 4 sessions did it all\n%s%s", res.code, good.Load(), res.stdout, res.stderr)
	}
	os.WriteFile(filepath.Join(dir, "bad.yaml"), []byte(fmt.Sprintf(test, host, "ca fe 0")), 0o644)
	res = loadlens(t, dir, "run", "bad.yaml", "--quiet")
	want := `bad.yaml:9:22: scenarios.chat.flow[0].send[0].hex: not hexadecimal: 5 digits, an odd number (two digits a byte)`
	if res.code != 2 || !strings.Contains(res.stderr, want) {
		t.Errorf("a bad hex payload: exit %d, stderr %q; want 2 and %q", res.code, res.stderr, want)
	}
}
