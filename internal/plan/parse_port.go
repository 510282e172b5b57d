package plan

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/loadlens/loadlens/internal/yamldoc"
)

// badPort says why u's port cannot be dialled ("" when it can, or when u
// has none): url.Parse takes any digits, and a port past 65535 would
// otherwise fail every request at run time as an "other" error.
func badPort(u *url.URL) string {
	port := u.Port()
	if port == "" {
		return ""
	}
	if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
		return "the port must be a number from 1 to 65535, not " + port
	}
	return ""
}

// checkPort reports u's bad port at the port's column in n's text src,
// or at n when src does not spell it out (a templated base_url).
func (p *parser) checkPort(n yamldoc.Node, src string, u *url.URL) bool {
	why := badPort(u)
	if why == "" {
		return true
	}
	at := n.Pos
	if i := strings.Index(src, "://"); i >= 0 {
		if j := strings.Index(src[i+3:], ":"+u.Port()); j >= 0 {
			at = p.Src.PosAt(n.V, i+3+j+1)
		}
	}
	p.Errs.Add(at, n.Path, "bad URL %q: %s", u.Redacted(), why)
	return false
}
