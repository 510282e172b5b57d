package h1

import (
	"errors"
	"net"
	"strings"
	"testing"
)

// TestStrictFraming: what net/http rejects is ErrMalformed here, with a
// message naming the problem; what it accepts reads the same.
func TestStrictFraming(t *testing.T) { runExchanges(t, framingCases()) }

func framingCases() []exchangeCase {
	const ok = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"
	okAnswer := answer{status: 200, body: "ok"}
	bad := func(name, reply, errHas string) exchangeCase {
		// after a violation the connection is dropped: the next request
		// gets its answer on a new one
		return exchangeCase{name: name, replies: []string{reply, ok}, want: []answer{{err: ErrMalformed, errHas: errHas}, okAnswer}, conns: 2}
	}
	good := func(name, reply string, status int, body string) exchangeCase {
		return exchangeCase{name: name, replies: []string{reply, ok}, want: []answer{{status: status, body: body}, okAnswer}, conns: 1}
	}
	h := "HTTP/1.1 200 OK\r\n"
	cases := []exchangeCase{
		bad("Content-Length with a letter", h+"Content-Length: 12x\r\n\r\n12", "Content-Length"),
		bad("negative Content-Length", h+"Content-Length: -1\r\n\r\n", "Content-Length"),
		bad("Content-Length past 2^63-1", h+"Content-Length: 9223372036854775808\r\n\r\n", "Content-Length"),
		bad("Content-Length of 20 digits", h+"Content-Length: 99999999999999999999\r\n\r\n", "Content-Length"),
		bad("empty Content-Length", h+"Content-Length: \r\n\r\n", "Content-Length"),
		bad("a list in one Content-Length", h+"Content-Length: 2, 2\r\n\r\nok", "Content-Length"),
		bad("two different Content-Lengths", h+"Content-Length: 2\r\nContent-Length: 3\r\n\r\nok!", "two different Content-Length"),
		bad("bad Content-Length on a 204", "HTTP/1.1 204 No Content\r\nContent-Length: x\r\n\r\n", "Content-Length"),
		good("the same Content-Length twice", h+"Content-Length: 2\r\ncontent-length: 2\r\n\r\nok", 200, "ok"),
		bad("Transfer-Encoding gzip", h+"Transfer-Encoding: gzip\r\n\r\nok", "Transfer-Encoding"),
		bad("Transfer-Encoding gzip, chunked", h+"Transfer-Encoding: gzip, chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n", "Transfer-Encoding"),
		bad("two Transfer-Encoding fields", h+"Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n", "Transfer-Encoding"),
		good("Transfer-Encoding in capitals", h+"Transfer-Encoding: CHUNKED\r\n\r\n2\r\nok\r\n0\r\n\r\n", 200, "ok"),
		good("chunked wins over Content-Length", h+"Content-Length: 100\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n", 200, "ok"),
		good("HTTP/1.0 ignores Transfer-Encoding", "HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nTransfer-Encoding: chunked\r\nContent-Length: 2\r\n\r\nok", 200, "ok"),
		bad("header line without a colon", h+"Content-Length 2\r\n\r\nok", "colon"),
		bad("empty field name", h+": x\r\nContent-Length: 2\r\n\r\nok", "field name"),
		bad("invalid byte in a field name", h+"X(y): 1\r\nContent-Length: 2\r\n\r\nok", "field name"),
		bad("tab in a field name", h+"X\t: 1\r\nContent-Length: 2\r\n\r\nok", "field name"),
		bad("non-ASCII field name", h+"Ü: 1\r\nContent-Length: 2\r\n\r\nok", "field name"),
		bad("NUL in a value", h+"X: a\x00b\r\nContent-Length: 2\r\n\r\nok", "value"),
		bad("CR inside a value", h+"X: a\rb\r\nContent-Length: 2\r\n\r\nok", "value"),
		bad("folded first field", h+" X: 1\r\nContent-Length: 2\r\n\r\nok", "folded"),
		good("folded field joined", h+"X: a\r\n  b\r\nContent-Length: 2\r\n\r\nok", 200, "ok"),
		good("bare LF line ends", "HTTP/1.1 200 OK\nContent-Length: 2\n\nok", 200, "ok"),
		good("obs-text in a value", h+"X: caf\xe9\r\nContent-Length: 2\r\n\r\nok", 200, "ok"),
		bad("chunk size not hex", h+"Transfer-Encoding: chunked\r\n\r\nzz\r\nok\r\n0\r\n\r\n", "chunk size"),
		bad("chunk size with a 0x prefix", h+"Transfer-Encoding: chunked\r\n\r\n0x2\r\nok\r\n0\r\n\r\n", "chunk size"),
		bad("chunk size with a space before it", h+"Transfer-Encoding: chunked\r\n\r\n 2\r\nok\r\n0\r\n\r\n", "chunk size"),
		bad("chunk size of 17 digits", h+"Transfer-Encoding: chunked\r\n\r\n00000000000000002\r\nok\r\n0\r\n\r\n", "chunk size"),
		bad("chunk size line ending in a bare LF", h+"Transfer-Encoding: chunked\r\n\r\n2\nok\r\n0\r\n\r\n", "bare LF"),
		bad("chunk data longer than its size", h+"Transfer-Encoding: chunked\r\n\r\n2\r\nokk\r\n0\r\n\r\n", "CRLF"),
		bad("chunk size line of 5000 bytes", h+"Transfer-Encoding: chunked\r\n\r\n2;"+strings.Repeat("x", 5000)+"\r\nok\r\n0\r\n\r\n", "4 KiB"),
		good("chunk extension, blanks at the line's end", h+"Transfer-Encoding: chunked\r\n\r\n2;a=b \t\r\nok\r\n2 \r\nok\r\n0\r\n\r\n", 200, "okok"),
		// net/http trims blanks at the line's end before it cuts the
		// extension, so a blank between the size and ";" is an invalid size
		bad("blank between chunk size and extension", h+"Transfer-Encoding: chunked\r\n\r\n2 ;a=b\r\nok\r\n0\r\n\r\n", "chunk size"),
		good("chunked trailer fields", h+"Transfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\nX-Sum: 1\r\nX-More: 2\r\n\r\n", 200, "ok"),
		bad("malformed trailer line", h+"Transfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\nno colon\r\n\r\n", "trailer"),
		bad("status code with a sign", "HTTP/1.1 +20 OK\r\nContent-Length: 2\r\n\r\nok", "status code"),
		bad("status code below 100", "HTTP/1.1 099 OK\r\nContent-Length: 2\r\n\r\nok", "status code"),
		bad("version not a digit", "HTTP/1.x 200 OK\r\nContent-Length: 2\r\n\r\nok", "version"),
		good("two spaces before the code", "HTTP/1.1  200 OK\r\nContent-Length: 2\r\n\r\nok", 200, "ok"),
		// textproto keeps "Content-Length " (a space before the colon) as
		// another field, so the body runs to the close
		{name: "space before the colon names another field", replies: []string{h + "Content-Length : 2\r\n\r\nok<close>", ok},
			want: []answer{{status: 200, body: "ok"}, okAnswer}, conns: 2},
	}
	return cases
}

// TestNotHTTPFailsFast: a reply whose first line is not a status line fails
// at that line, as net/http fails, rather than waiting (here until the
// timeout) for a blank line that never comes.
func TestNotHTTPFailsFast(t *testing.T) {
	url, _ := rawServer(t, "SSH-2.0-OpenSSH_9.6\r\n") // and then silence, connection open
	cl := NewClient(&net.Dialer{})
	defer cl.Close()
	if _, err := do(t, cl, "GET", url, false); !errors.Is(err, ErrMalformed) {
		t.Fatalf("err = %v, want ErrMalformed (a timeout means it waited)", err)
	}
}
