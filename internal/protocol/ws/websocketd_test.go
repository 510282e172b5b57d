//go:build unix

package ws

import (
	"bufio"
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/jsonpath"
	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/protocol/prototest"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/testkit"
	"github.com/loadlens/loadlens/internal/tmpl"
)

// pingScript is a websocketd program: two pings (a line each), each
// answer acknowledged with "ack <answer>".
const pingScript = `#!/bin/sh
for id in p1 p2; do
  echo "{\"type\": \"ping\", \"id\": \"$id\"}"
  read -r answer || exit 0
  echo "ack $answer"
done
read -r rest
`

// startWebsocketd runs Debian's websocketd (a WebSocket server nobody here
// wrote, over any program's stdin and stdout) on 127.0.0.1 and returns its
// ws:// URL once it accepts connections.
func startWebsocketd(t *testing.T, args ...string) string {
	t.Helper()
	bin := testkit.Need(t, "websocketd")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	cmd := exec.Command(bin, append([]string{"--address=127.0.0.1", "--port=" + strconv.Itoa(port), "--loglevel=info"}, args...)...)
	logs, err := cmd.StdoutPipe() // websocketd logs to stdout
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	started := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(logs)
		for sc.Scan() {
			if strings.Contains(sc.Text(), "Starting WebSocket server") {
				started <- true
				for sc.Scan() { // drain, so that the server never blocks on its log
				}
				return
			}
		}
		started <- false
	}()
	select {
	case ok := <-started:
		if !ok {
			t.Fatal("websocketd exited before it started")
		}
	case <-time.After(30 * time.Second):
		t.Fatal("websocketd did not start within 30s")
	}
	addr := "127.0.0.1:" + strconv.Itoa(port)
	// It logs just before it listens: wait for the listener, bounded.
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for tries := 0; ; tries++ {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			c.Close()
			return "ws://" + addr + "/"
		}
		if tries == 1000 {
			t.Fatalf("websocketd does not accept connections: %v", err)
		}
		<-tick.C
	}
}

// TestAgainstWebsocketd: binary messages and replies against websocketd.
func TestAgainstWebsocketd(t *testing.T) {
	script := filepath.Join(t.TempDir(), "ping.sh")
	if err := os.WriteFile(script, []byte(pingScript), 0o755); err != nil {
		t.Fatal(err)
	}
	pong, _ := tmpl.Compile(`{"type": "pong", "id": "{{ id }}"}`, &tmpl.Scope{Vars: map[string]int{"id": 0}})
	isPing := plan.Check{From: plan.FromJSON, Path: jsonpath.MustParse("$.type"), Op: plan.OpEq, Values: []string{"ping"}}
	tests := []struct {
		name   string
		args   []string
		s      plan.Session
		sent   int64
		checks map[int32][2]int
	}{
		{"binary, echoed by cat", []string{"--binary=true", "cat"},
			plan.Session{Send: []plan.Send{{Text: tmpl.Literal("\x00\x01\xca\xfe\n\xff"), Binary: true}},
				Until:  &plan.Check{From: plan.FromBody, Op: plan.OpContains, Values: []string{"\xca\xfe"}},
				Checks: []plan.Check{{ID: 0, From: plan.FromSize, Op: plan.OpEq, Values: []string{"6"}}}},
			1, map[int32][2]int{0: {1, 0}}},
		{"replies to pings with their ids", []string{"sh", script},
			plan.Session{Replies: []plan.Reply{{On: isPing, Send: plan.Send{Text: pong},
				Extract: []plan.Extract{{Var: 0, Name: "id", From: plan.FromJSON, Path: jsonpath.MustParse("$.id"), Check: 1}}}},
				Until: &plan.Check{From: plan.FromBody, Op: plan.OpContains, Values: []string{`ack {"type": "pong", "id": "p2"}`}}},
			2, map[int32][2]int{1: {2, 0}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := tt.s
			s.URL, s.Timeout, s.MaxMessage = tmpl.Literal(startWebsocketd(t, tt.args...)), 10*time.Second, plan.DefaultMaxMessage
			st, _ := Protocol{}.Prepare(&s, prototest.Env(10*time.Second))
			sess := st.NewSession()
			defer sess.Close()
			vu := prototest.NewVU()
			sess.Run(context.Background(), vu, time.Now())
			r, f := vu.Samples[0], vu.Facts[0]
			if r.Kind != sample.OK || f.MsgsSent != tt.sent || f.Reply <= 0 {
				t.Errorf("kind %v (%q), %d sent, reply time %v; want ok, %d sent, a reply time", r.Kind, r.Err, f.MsgsSent, f.Reply, tt.sent)
			}
			for id, want := range tt.checks {
				if vu.Checks[id] != want {
					t.Errorf("check %d: %v passes/fails, want %v", id, vu.Checks[id], want)
				}
			}
		})
	}
}
