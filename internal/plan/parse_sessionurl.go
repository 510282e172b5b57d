package plan

import (
	"net/url"
	"slices"

	"github.com/loadlens/loadlens/internal/tmpl"
	"github.com/loadlens/loadlens/internal/yamldoc"
)

// sessionValue checks the value of a session step's URL written as a
// template known before the run (ws: "{{ env.TARGET }}"), src at n, when
// the file is parsed, as the same URL written literally is checked: a
// value per session is checked by its dial instead. protocol is the step's
// key (ws, sse). It reports false after adding an error at n.
func (p *parser) sessionValue(n yamldoc.Node, src string, sc *scenarioCtx, protocol string) bool {
	t, err := tmpl.Compile(src, sc.scope)
	if err != nil {
		return true // requestURL compiles it again and reports the error at its character
	}
	c, isConst := t.Const()
	if !isConst {
		return true
	}
	schemes, allowed := "http:// or https://", []string{"http", "https"}
	if protocol == "ws" {
		schemes, allowed = "ws://, wss://, http:// or https://", []string{"ws", "wss", "http", "https"}
	}
	scheme, abs := urlScheme(c)
	switch {
	case !abs && sc.def.baseURL == "" && !p.badBase:
		p.Errs.Add(n.Pos, n.Path, "%s is %q, a relative path: it needs base_url at the top of the file, or a full %s URL", src, Redact(c), schemes)
		return false
	case !abs:
		return true // joined to base_url, as a literal path is
	case !slices.Contains(allowed, scheme):
		p.Errs.Add(n.Pos, n.Path, "%s is %q: a%s %s: step's URL is %s and a host", src, Redact(c), article(protocol), protocol, schemes)
		return false
	}
	if u, err := url.Parse(c); err != nil || u.Host == "" {
		p.Errs.Add(n.Pos, n.Path, "%s is %q, a bad URL: %s", src, Redact(c), urlProblem(err))
		return false
	}
	return true
}
