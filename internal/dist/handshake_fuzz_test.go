package dist

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"io"
	"net"
	"strings"
	"sync/atomic"
	"testing"
)

// countingConn counts the bytes read from a connection.
type countingConn struct {
	net.Conn
	n atomic.Int64
}

func (c *countingConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.n.Add(int64(n))
	return n, err
}

// rawFrame is a frame's bytes with the length its header claims.
func rawFrame(kind byte, claim uint32, body []byte) []byte {
	hdr := [5]byte{kind}
	binary.BigEndian.PutUint32(hdr[1:], claim)
	return append(hdr[:], body...)
}

func helloFrame(t testing.TB, h hello) []byte {
	b, err := json.Marshal(h)
	if err != nil {
		t.Fatal(err)
	}
	return rawFrame(kindHello, uint32(len(b)), b)
}

// FuzzAgentPreAuthFrames feeds the agent's handshake whatever a stranger
// may send before the token is checked. Whatever the bytes: it lets in only
// a hello with the exact token and the agent's build; it reads no more than
// one small frame, and nothing past a header that claims more; it never
// panics. The seeds run in every `go test`.
func FuzzAgentPreAuthFrames(f *testing.F) {
	build := Build{Version: "test"}
	right := hello{Token: token, Build: build}
	f.Add(helloFrame(f, right))
	f.Add(helloFrame(f, hello{Token: "s3cret-tokem", Build: build}))
	f.Add(helloFrame(f, hello{Token: token, Build: Build{Version: "0.0.1"}}))
	f.Add(helloFrame(f, hello{Token: token + "\x00", Build: build}))
	f.Add(helloFrame(f, hello{Build: build}))
	f.Add(rawFrame(kindHello, maxFrame, nil))                                     // a 256 MiB claim, no body
	f.Add(rawFrame(kindHello, maxHello+1, bytes.Repeat([]byte("x"), maxHello+1))) // one byte over, body and all
	f.Add(rawFrame(kindJob, 2, []byte("{}")))                                     // a job before the hello
	f.Add(rawFrame(kindHello, 4, []byte(`{"to`)))                                 // a body shorter than it said
	f.Add(rawFrame(kindHello, 10000, []byte(strings.Repeat("[", 10000))))         // deep nesting
	f.Add(rawFrame(kindHello, 13, []byte(`{"token": 42}`)))
	f.Add(append(helloFrame(f, right), rawFrame(kindJob, maxFrame, nil)...)) // the right hello, then a huge claim
	f.Add([]byte{kindHello, 0})
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		server, client := net.Pipe()
		counted := &countingConn{Conn: server}
		go func() { _, _ = client.Write(data); _ = client.Close() }()
		go func() { _, _ = io.Copy(io.Discard, client) }() // the refusal, if any
		cfg := &AgentConfig{Token: token, Out: io.Discard, build: build}
		ok := authenticate(cfg, counted)
		server.Close()
		read := counted.n.Load()

		if read > 5+maxHello {
			t.Fatalf("read %d bytes before authenticating, more than one %d-byte hello", read, maxHello)
		}
		if len(data) >= 5 && binary.BigEndian.Uint32(data[1:5]) > maxHello && read > 5 {
			t.Fatalf("a header claiming %d bytes had %d bytes read after it", binary.BigEndian.Uint32(data[1:5]), read-5)
		}
		if !ok {
			return
		}
		var h hello
		if len(data) < 5 || data[0] != kindHello || json.Unmarshal(data[5:read], &h) != nil {
			t.Fatalf("let in %q, which does not start with a hello", data)
		}
		if h.Token != token || !build.sameAs(h.Build) {
			t.Fatalf("let in token %q of build %v", h.Token, h.Build)
		}
	})
}
