// Package access holds what loadlens's listeners (the dashboard, the OTLP
// receiver) share to admit a request: a token's rules, a new token, and
// whether a listener or a request's Host is this machine's only.
package access

import (
	"crypto/rand"
	"errors"
	"net"
	"net/http"
	"strconv"
	"strings"
	"unicode"
)

// MinTokenLength is the shortest token accepted: a guessable one would
// give the listener away to anyone on the network.
const MinTokenLength = 16

// CheckToken reports what is wrong with a token chosen by the user for
// what ("a dashboard token"): too short, or with a character outside
// printable ASCII, a space or one of forbidden, which a URL, a cookie or
// a header would mangle; named says which ones, for the message.
func CheckToken(token, what, forbidden, named string) error {
	if len(token) < MinTokenLength {
		return errors.New(what + " needs at least " + strconv.Itoa(MinTokenLength) + " characters")
	}
	for _, c := range token {
		if c > unicode.MaxASCII || !unicode.IsPrint(c) || c == ' ' || strings.ContainsRune(forbidden, c) {
			return errors.New(what + " may hold printable ASCII only, without spaces, " + named)
		}
	}
	return nil
}

// NewToken returns a random token of 26 base32 characters (128 bits).
func NewToken() string { return rand.Text() }

// IsLoopback reports whether a listener's address is reachable only from
// this machine.
func IsLoopback(a net.Addr) bool {
	tcp, ok := a.(*net.TCPAddr)
	return ok && tcp.IP.IsLoopback()
}

// LocalHost reports whether a request's Host is an IP address or
// localhost: a name other than that is a web page elsewhere reaching a
// loopback listener through DNS rebinding.
func LocalHost(r *http.Request) bool {
	host, _, err := net.SplitHostPort(r.Host)
	if err != nil {
		host = r.Host
	}
	return host == "localhost" || net.ParseIP(host) != nil
}
