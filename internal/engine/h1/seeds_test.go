package h1

import "strings"

// seedReplies is every reply the table tests send, as one byte stream
// each (rawServer's write splits and close marks removed), for the
// differential fuzz test's corpus.
func seedReplies() []string {
	var out []string
	add := func(r string) {
		out = append(out, strings.ReplaceAll(strings.TrimSuffix(r, "<close>"), "|", ""))
	}
	for _, r := range extraSeeds {
		add(r)
	}
	for _, c := range responseFramingCases() {
		add(c.reply)
	}
	for _, c := range malformedCases() {
		add(c.reply)
	}
	for _, cases := range [][]exchangeCase{interimCases(), framingCases()} {
		for _, c := range cases {
			add(c.replies[0])
		}
	}
	return out
}

// extraSeeds are replies no table sends as a whole.
var extraSeeds = []string{
	"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello",
	"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok",
	"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;x=1\r\nhello\r\n6\r\n world\r\n0\r\nX-T: 1\r\n\r\n",
	"HTTP/1.1 200 OK\nContent-Length: 2\n\nok",
	"HTTP/1.1 200 OK\r\nX: a\r\n b\r\nContent-Length: 0\r\n\r\n",
	"HTTP/1.0 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\n",
	"HTTP/1.1 200 OK\r\nContent-Length : 2\r\n\r\nok",
	"HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok",
	"HTTP/1.1 200 OK\r\nX: a\r\n \r\nY:\r\n \t\r\nZ:\r\n\tz \r\nContent-Length: 0\r\n\r\n",
	"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nx\r\n0\r\n\nabc\r\n\r\n",
	"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nx\r\n0\r\n\n",
	"HTTP/1.1 200 OK\r\n\r\r\n\r\n",
	"HTTP/1.1 200 OK\r\r\nContent-Length: 0\r\n\r\n",
	"HTTP/1.0 200 OK\r\nConnection: keep-alive, Upgrade\r\nContent-Length: 0\r\n\r\n",
	"HTTP/0.9 200 OK\r\nContent-Length: 0\r\n\r\n",
	"HTTP/2.0 200 OK\r\nContent-Length: 0\r\n\r\n",
	"HTTP/1.1 200 OK\r\nPragma: no-cache\r\nContent-Length: 0\r\n\r\n",
	"HTTP/1.1 304 Not Modified\r\nTransfer-Encoding: chunked\r\n\r\n",
	"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\nxyz",
}
