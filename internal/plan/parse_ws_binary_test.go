package plan

import (
	"errors"
	"strings"
	"testing"

	"github.com/loadlens/loadlens/internal/yamldoc"
)

// TestParseWSBinaryAndReplies: hex: and base64: payloads are decoded while
// parsing (a templated one is kept for the run), reply: items parse with
// their on: check and extract:, whose variables the reply's template reads.
func TestParseWSBinaryAndReplies(t *testing.T) {
	src := head + `      - ws: /chat
        duration: 10s
        send:
          - hex: "00 01 fe ff"
          - base64: AAH+/w==
          - hex: "0a{{ vu }}"
        reply:
          - on: {json: $.type, eq: ping}
            extract: {ping_id: {json: $.id}}
            text: '{"type": "pong", "id": "{{ ping_id }}"}'
          - on: {size: {gte: 4}}
            base64: AQ==
        check:
          - body_contains: {hex: fe ff}
          - size: {lt: 1024}
`
	p, err := Parse("t.yaml", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	s := p.Scenarios[0].Flow[0].Session
	for i, want := range []string{"\x00\x01\xfe\xff", "\x00\x01\xfe\xff"} {
		got, isConst := s.Send[i].Text.Const()
		if !s.Send[i].Binary || !isConst || got != want || s.Send[i].Encoding != RawBytes {
			t.Errorf("send[%d] = %+v %q, want the bytes %q decoded", i, s.Send[i], got, want)
		}
	}
	if snd := s.Send[2]; !snd.Binary || snd.Encoding != Hex {
		t.Errorf("a templated hex payload: %+v, want it kept as hex for the run", snd)
	}
	if len(s.Replies) != 2 || s.Replies[0].On.From != FromJSON || len(s.Replies[0].Extract) != 1 ||
		s.Replies[0].Send.Binary || s.Replies[1].On.From != FromSize || !s.Replies[1].Send.Binary {
		t.Fatalf("replies = %+v", s.Replies)
	}
	if vars := s.Replies[0].Send.Text.UsesVars(); len(vars) != 1 || vars[0] != s.Replies[0].Extract[0].Var {
		t.Errorf("the reply renders slots %v, its extract sets slot %d", vars, s.Replies[0].Extract[0].Var)
	}
	if c := s.Checks[0]; c.From != FromBody || c.Op != OpContains || c.Values[0] != "\xfe\xff" || c.Name != "body contains hex fe ff" {
		t.Errorf("body_contains hex = %+v", c)
	}
	if c := s.Checks[1]; c.From != FromSize || c.Op != OpLt || c.Values[0] != "1024" || c.Name != "size < 1024" {
		t.Errorf("size check = %+v", c)
	}
}

func TestParseWSBinaryInvalid(t *testing.T) {
	const ws = "      - ws: /chat\n        duration: 1s\n"
	tests := []struct {
		name, step, want string
	}{
		{"hex with a bad digit", ws + "        send: [{hex: 0g}]\n",
			`9:22: scenarios.s.flow[0].send[0].hex: not hexadecimal: 'g' is not a hex digit (0-9, a-f)`},
		{"hex of odd length", ws + "        send:\n          - hex: 0a0\n",
			`10:18: scenarios.s.flow[0].send[0].hex: not hexadecimal: 3 digits, an odd number (two digits a byte)`},
		{"bad base64", ws + "        send:\n          - base64: 'AA*A'\n",
			`10:21: scenarios.s.flow[0].send[0].base64: not base64 (standard alphabet, padded): bad or missing character at character 3 (spaces not counted)`},
		{"two payloads", ws + "        send: [{text: a, hex: 00}]\n",
			`9:26: scenarios.s.flow[0].send[0].hex: a message has one payload: text and hex both given`},
		{"bad hex in a check", ws + "        check: [{body_contains: {hex: zz}}]\n",
			`9:39: scenarios.s.flow[0].check[0].body_contains.hex: not hexadecimal: 'z' is not a hex digit (0-9, a-f)`},
		{"size compares numbers", ws + "        check: [{size: {contains: 3}}]\n",
			`9:25: scenarios.s.flow[0].check[0].size.contains: unknown key "contains" (allowed: eq, ne, lt, lte, gt, gte)`},
		{"size is WebSocket's", "      - get: /x\n        check: [{size: {eq: 3}}]\n",
			`8:18: scenarios.s.flow[0].check[0].size: size: checks a WebSocket message's length; here use body_matches or json`},
		{"a reply without on", ws + "        reply: [{text: pong}]\n",
			`9:17: scenarios.s.flow[0].reply[0]: missing key "on": the check a message must match to be answered`},
		{"a reply on a status", ws + "        reply: [{on: {status: 101}, text: pong}]\n",
			`9:22: scenarios.s.flow[0].reply[0].on: a reply answers a message: on: is a body_contains, body_matches, json or size check`},
		{"a reply extracting a header", ws + "        reply:\n          - on: {body_contains: ping}\n            extract: {id: {header: X-Id}}\n            text: pong\n",
			`11:23: scenarios.s.flow[0].reply[0].extract.id: a reply extracts from the message it answers: json or regex, not header`},
		{"a reply's bad base64", ws + "        reply: [{on: {size: {gt: 0}}, base64: '!'}]\n",
			`9:47: scenarios.s.flow[0].reply[0].base64: not base64 (standard alphabet, padded): bad or missing character at character 1 (spaces not counted)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("t.yaml", []byte(head+tt.step), nil)
			var es yamldoc.Errors
			if !errors.As(err, &es) {
				t.Fatalf("error is %T, want Errors: %v", err, err)
			}
			want := "t.yaml:" + strings.ReplaceAll(tt.want, "\n", "\nt.yaml:")
			if got := err.Error(); got != want {
				t.Errorf("errors:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}
