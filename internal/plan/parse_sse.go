package plan

import (
	"strings"

	"github.com/loadlens/loadlens/internal/tmpl"
	"github.com/loadlens/loadlens/internal/yamldoc"
)

// sseKeys are the keys of an sse: step.
var sseKeys = []string{"sse", "name", "query", "headers", "timeout", "duration", "max_events", "max_event_size", "reconnect", "check"}

// sseStep parses an sse: step: subscribe to a Server-Sent Events stream.
func (p *parser) sseStep(o *yamldoc.Object, sc *scenarioCtx) (Step, bool) {
	errsBefore := p.Errs.Len()
	s, pathNode, ok := p.sessionStep(o, sc, "an sse:", "sse", sseKeys)
	if !ok {
		return Step{}, false
	}
	src, ok := p.NonEmpty(pathNode, "a URL or path like /events")
	named, _, _ := cutUserinfo(src) // an endpoint is never named by its credentials
	name := pathWithoutQuery(named)
	if n, has := o.Get("name"); has {
		name, _ = p.NonEmpty(n, "an endpoint name")
	}
	if ok && name != "" && sc.s.ID >= 0 {
		s.Endpoint = p.layout.endpoint(sc.s.ID, sc.group, "SSE "+name, "GET")
		p.layout.protocol(s.Endpoint, s.Protocol, true)
	}
	if ok {
		p.sessionTarget(o, pathNode, src, sc, s)
	}
	p.sessionLimits(o, s, limitKeys{max: "max_events", size: "max_event_size", key: "sse", ends: "duration: or max_events: (or both)"})
	if n, has := o.Get("check"); has {
		s.Checks = p.checks(n, s.Endpoint, nil)
	}
	return Step{Kind: SessionStep, Session: s}, p.Errs.Len() == errsBefore
}

// sessionTarget parses a session step's URL (src, written at n) and headers.
func (p *parser) sessionTarget(o *yamldoc.Object, n yamldoc.Node, src string, sc *scenarioCtx, s *Session) {
	var auth string
	join := tmpl.JoinURL
	if s.Protocol == "ws" {
		join = tmpl.JoinWSURL
	}
	if dynamicStart(src) && !p.sessionValue(n, src, sc, s.Protocol) {
		return
	}
	if s.URL, auth = p.requestURL(n, src, o, sc, join); s.URL != nil && s.Endpoint >= 0 {
		p.layout.scheme(s.Endpoint, isPlainURL(s.URL.String()))
	}
	var stepHeaders []yamldoc.Field
	if h, has := o.Get("headers"); has {
		stepHeaders = p.headerFields(h)
	}
	s.Headers = withAuthorization(p.headers(sc.def.headers, stepHeaders, sc.scope), auth)
}

// limitKeys names a session step's keys for its limits, which differ by
// protocol (max_events for SSE, max_messages for WebSocket).
type limitKeys struct {
	max, size, key, ends string
}

// sessionLimits parses what bounds a session: timeout, duration, the
// most messages and their size, and reconnect.
func (p *parser) sessionLimits(o *yamldoc.Object, s *Session, k limitKeys) {
	if n, ok := o.Get("timeout"); ok {
		if d, ok := p.PositiveDuration(n); ok {
			s.Timeout = d
		}
	}
	if n, ok := o.Get("duration"); ok {
		if d, ok := p.PositiveDuration(n); ok {
			s.Duration = d
		}
	}
	if n, ok := o.Get(k.max); ok {
		if v, ok := p.Count(n, 1); ok {
			s.MaxMessages = v
		}
	}
	if n, ok := o.Get(k.size); ok {
		if v, ok := p.size(n); ok && v > 0 {
			s.MaxMessage = v
		} else if ok {
			p.Errs.Add(n.Pos, n.Path, "must be above 0")
		}
	}
	if n, ok := o.Get("reconnect"); ok {
		if v, ok := p.Count(n, 0); ok {
			s.Reconnects = v
		}
	}
	if !o.Has("duration") && !o.Has(k.max) && !o.Has("until") {
		p.Errs.Add(o.KeyPos(k.key), o.Path, "a%s %s: step needs %s, so that it ends", article(k.key), k.key, k.ends)
	}
}

// isPlainURL reports whether a URL's text is a plain http:// one.
func isPlainURL(u string) bool { return strings.HasPrefix(strings.ToLower(u), "http://") }

// article is "n" before a step key read with a vowel sound (an sse:), else "".
func article(key string) string {
	if strings.HasPrefix(key, "s") {
		return "n"
	}
	return ""
}
