//go:build unix

package h1

import (
	"bufio"
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/sha256"
	"crypto/sha512"
	"crypto/tls"
	"encoding/binary"
	"encoding/hex"
	"hash"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/engine/h1/h1test"
)

// forger writes the records of a crypto/tls server's connection itself,
// with the server's application traffic secret (read through its
// KeyLogWriter), so a test can send what crypto/tls never sends on its
// own: a session ticket after a response, a close_notify or stray data
// while the connection is idle. The server's tls.Conn still reads the
// requests; once the handshake is done, only the forger writes.
type forger struct {
	raw  net.Conn
	aead cipher.AEAD
	iv   []byte
	seq  uint64
}

// keyLog keeps what crypto/tls writes to a KeyLogWriter.
type keyLog struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (k *keyLog) Write(p []byte) (int, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.b.Write(p)
}

// secret returns the secret logged under label.
func (k *keyLog) secret(label string) []byte {
	k.mu.Lock()
	defer k.mu.Unlock()
	for _, l := range strings.Split(k.b.String(), "\n") {
		if f := strings.Fields(l); len(f) == 3 && f[0] == label {
			s, _ := hex.DecodeString(f[2])
			return s
		}
	}
	return nil
}

// expandLabel is TLS 1.3's HKDF-Expand-Label with an empty context.
func expandLabel(h func() hash.Hash, secret []byte, label string, n int) []byte {
	info := []byte{byte(n >> 8), byte(n), byte(len("tls13 " + label))}
	info = append(info, "tls13 "+label...)
	info = append(info, 0)
	out, err := hkdf.Expand(h, secret, string(info), n)
	if err != nil {
		panic(err)
	}
	return out
}

// newForger returns the forger of a server connection whose handshake is
// done, or nil for a cipher suite it does not know (ChaCha20-Poly1305).
func newForger(raw net.Conn, tc *tls.Conn, kl *keyLog) *forger {
	h, keyLen := sha256.New, 16
	switch tc.ConnectionState().CipherSuite {
	case tls.TLS_AES_128_GCM_SHA256:
	case tls.TLS_AES_256_GCM_SHA384:
		h, keyLen = sha512.New384, 32
	default:
		return nil
	}
	secret := kl.secret("SERVER_TRAFFIC_SECRET_0")
	block, err := aes.NewCipher(expandLabel(h, secret, "key", keyLen))
	if err != nil {
		panic(err)
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		panic(err)
	}
	return &forger{raw: raw, aead: aead, iv: expandLabel(h, secret, "iv", 12)}
}

// record returns one encrypted record of content type typ.
func (f *forger) record(typ byte, data []byte) []byte {
	inner := append(append([]byte{}, data...), typ)
	n := len(inner) + f.aead.Overhead()
	hdr := []byte{23, 3, 3, byte(n >> 8), byte(n)}
	nonce := append([]byte{}, f.iv...)
	var seq [8]byte
	binary.BigEndian.PutUint64(seq[:], f.seq)
	for i := range seq {
		nonce[4+i] ^= seq[i]
	}
	f.seq++
	return f.aead.Seal(hdr, nonce, inner, hdr)
}

func (f *forger) data(s string) []byte { return f.record(23, []byte(s)) }
func (f *forger) closeNotify() []byte  { return f.record(21, []byte{1, 0}) }

// ticket returns a NewSessionTicket message (an hour's lifetime, a ticket
// no server will accept: resuming with it falls back to a full handshake).
func (f *forger) ticket() []byte {
	body := []byte{0, 0, 0x0e, 0x10, 1, 2, 3, 4, 1, 0, 0, 16}
	body = append(body, bytes.Repeat([]byte{0xab}, 16)...)
	body = append(body, 0, 0) // no extensions
	msg := append([]byte{4, 0, byte(len(body) >> 8), byte(len(body))}, body...)
	return f.record(22, msg)
}

// send writes records in one write, so they arrive together.
func (f *forger) send(records ...[]byte) { f.raw.Write(bytes.Join(records, nil)) }

const okReply = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"

// forgedConn is one connection of a forgedServer, for a case's script.
type forgedConn struct {
	*forger
	br   *bufio.Reader
	reqs *atomic.Int64
}

// next reads the next request; false when the client closed.
func (fc *forgedConn) next() bool {
	if _, err := http.ReadRequest(fc.br); err != nil {
		return false
	}
	fc.reqs.Add(1)
	return true
}

// forgedServer is a TLS 1.3 server whose first connection runs script and
// whose later ones answer every request with ok. It counts connections
// and requests.
func forgedServer(t *testing.T, script func(fc *forgedConn)) (url string, conns, reqs *atomic.Int64, cliCfg *tls.Config) {
	srvCfg, cliCfg := h1test.Certs(t)
	srvCfg.MinVersion = tls.VersionTLS13
	srvCfg.SessionTicketsDisabled = true // the forger's first record is then the connection's first after the handshake
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	conns, reqs = new(atomic.Int64), new(atomic.Int64)
	skip := make(chan string, 1)
	go func() {
		for {
			raw, err := ln.Accept()
			if err != nil {
				return
			}
			first := conns.Add(1) == 1
			go func() {
				defer raw.Close()
				kl := &keyLog{}
				cfg := srvCfg.Clone()
				cfg.KeyLogWriter = kl
				tc := tls.Server(raw, cfg)
				if err := tc.Handshake(); err != nil {
					return
				}
				f := newForger(raw, tc, kl)
				if f == nil {
					skip <- tls.CipherSuiteName(tc.ConnectionState().CipherSuite)
					return
				}
				fc := &forgedConn{forger: f, br: bufio.NewReader(tc), reqs: reqs}
				if first {
					script(fc)
				}
				for fc.next() {
					fc.send(fc.data(okReply))
				}
			}()
		}
	}()
	t.Cleanup(func() {
		select {
		case s := <-skip:
			t.Logf("cipher suite %s: this test forges AES-GCM records only", s)
		default:
		}
	})
	return "https://" + ln.Addr().String(), conns, reqs, cliCfg
}

// TestTLSRecordsArrivingWhileIdle: what a server sends on an idle https
// connection is read through crypto/tls before the connection is reused.
// Session tickets (post-handshake messages) leave it usable: the client
// keeps the session and reuses the connection, so a server that sends
// tickets after its responses never makes it redial. A close_notify, or
// application data no request asked for, whether it arrives while idle or
// right behind a response, sends the next request on a new connection.
func TestTLSRecordsArrivingWhileIdle(t *testing.T) {
	stray := "HTTP/1.1 500 Stray\r\nContent-Length: 5\r\n\r\nstray"
	// fill is a response of exactly readBufSize bytes: read into an empty
	// buffer, it fills it, and what follows in its record stays in
	// crypto/tls until the idle check reads it.
	const fillHead = "HTTP/1.1 200 OK\r\nContent-Length: 4055\r\n\r\n" // 41 bytes
	fill := fillHead + strings.Repeat("f", readBufSize-len(fillHead))
	cases := []struct {
		name      string
		script    func(fc *forgedConn, idle <-chan struct{}, sent chan<- struct{})
		wantConns int64
		ticket    bool // the client must have kept a session
		whileIdle bool // the script sends while idle, and tells sent
	}{
		{"a session ticket right behind the response", func(fc *forgedConn, idle <-chan struct{}, sent chan<- struct{}) {
			fc.next()
			fc.send(fc.data(okReply), fc.ticket())
		}, 1, true, false},
		{"a session ticket while idle", func(fc *forgedConn, idle <-chan struct{}, sent chan<- struct{}) {
			fc.next()
			fc.send(fc.data(okReply))
			<-idle
			fc.send(fc.ticket())
			sent <- struct{}{}
		}, 1, true, true},
		{"two session tickets while idle, as OpenSSL sends them", func(fc *forgedConn, idle <-chan struct{}, sent chan<- struct{}) {
			fc.next()
			fc.send(fc.data(okReply))
			<-idle
			fc.send(fc.ticket(), fc.ticket())
			sent <- struct{}{}
		}, 1, true, true},
		{"half a ticket while idle, the rest with the next response", func(fc *forgedConn, idle <-chan struct{}, sent chan<- struct{}) {
			fc.next()
			fc.send(fc.data(okReply))
			<-idle
			tk := fc.ticket()
			fc.send(tk[:10])
			sent <- struct{}{}
			fc.next()
			fc.send(tk[10:], fc.data(okReply))
		}, 1, true, true},
		{"a close_notify while idle", func(fc *forgedConn, idle <-chan struct{}, sent chan<- struct{}) {
			fc.next()
			fc.send(fc.data(okReply))
			<-idle
			fc.send(fc.closeNotify())
			sent <- struct{}{}
		}, 2, false, true},
		{"a close_notify right behind the response", func(fc *forgedConn, idle <-chan struct{}, sent chan<- struct{}) {
			fc.next()
			fc.send(fc.data(okReply), fc.closeNotify())
		}, 2, false, false},
		{"an unsolicited response while idle", func(fc *forgedConn, idle <-chan struct{}, sent chan<- struct{}) {
			fc.next()
			fc.send(fc.data(okReply))
			<-idle
			fc.send(fc.data(stray))
			sent <- struct{}{}
		}, 2, false, true},
		{"an unsolicited response in the record behind the response", func(fc *forgedConn, idle <-chan struct{}, sent chan<- struct{}) {
			fc.next()
			fc.send(fc.data(okReply), fc.data(stray))
		}, 2, false, false},
		{"a ticket then an unsolicited response", func(fc *forgedConn, idle <-chan struct{}, sent chan<- struct{}) {
			fc.next()
			fc.send(fc.data(okReply), fc.ticket(), fc.data(stray))
		}, 2, true, false},
		{"stray bytes in the response's record, past a full read buffer", func(fc *forgedConn, idle <-chan struct{}, sent chan<- struct{}) {
			fc.next()
			fc.send(fc.data(fill + stray))
		}, 2, false, false},
		{"a response filling the read buffer, alone in its record", func(fc *forgedConn, idle <-chan struct{}, sent chan<- struct{}) {
			fc.next()
			fc.send(fc.data(fill))
		}, 1, false, false},
	}
	for _, c := range cases {
		for _, method := range []string{"GET", "POST"} {
			t.Run(c.name+"/"+method, func(t *testing.T) {
				idle, sent := make(chan struct{}), make(chan struct{}, 1)
				url, conns, reqs, cliCfg := forgedServer(t, func(fc *forgedConn) { c.script(fc, idle, sent) })
				cl := tlsClient(cliCfg)
				defer cl.Close()
				first, err := do(t, cl, method, url+"/x", false)
				if err != nil || first.Status != 200 {
					t.Fatalf("first request: %v, status %d", err, first.Status)
				}
				close(idle)
				if c.whileIdle {
					select { // the idle bytes are written...
					case <-sent:
					case <-time.After(5 * time.Second):
						t.Fatal("the server never sent its idle bytes")
					}
					waitNotQuiet(t, cl.conns[0]) // ...and have reached the client's socket
				}
				resp, err := do(t, cl, method, url+"/x", true)
				if err != nil || resp.Status != 200 || string(resp.Body) != "ok" {
					t.Fatalf("second request: %v, %d %q; want 200 ok", err, resp.Status, resp.Body)
				}
				if conns.Load() != c.wantConns || reqs.Load() != 2 {
					t.Errorf("the server saw %d connections and %d requests, want %d and 2", conns.Load(), reqs.Load(), c.wantConns)
				}
				if _, ok := cl.tlsConfs.sessions.Get("127.0.0.1"); ok != c.ticket {
					t.Errorf("session kept = %v, want %v", ok, c.ticket)
				}
			})
		}
	}
}
