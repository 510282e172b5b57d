package plan

import (
	"slices"
	"strings"
)

// sseKeys are the keys of an sse: step.
var sseKeys = []string{"sse", "name", "query", "headers", "timeout", "duration", "max_events", "max_event_size", "reconnect", "check"}

// sseStep parses an sse: step: subscribe to a Server-Sent Events stream.
func (p *parser) sseStep(o *object, sc *scenarioCtx) (Step, bool) {
	errsBefore := len(p.errs.errs)
	s := &Session{Protocol: "sse", Endpoint: -1, Timeout: sc.def.timeout, MaxMessage: DefaultMaxMessage}
	for _, f := range o.fields {
		if !slices.Contains(sseKeys, f.name) {
			p.unknownKey(f, o.path, sseKeys)
		}
	}
	pathNode, _ := o.get("sse")
	if sc.s.ID < 0 {
		p.errs.add(pathNode.key, pathNode.path, "an sse: step is measured, so it belongs in a scenario's flow, not in setup: or teardown:")
		return Step{}, false
	}
	src, ok := p.nonEmpty(pathNode, "a URL or path like /events")
	name := pathWithoutQuery(src)
	if n, has := o.get("name"); has {
		name, _ = p.nonEmpty(n, "an endpoint name")
	}
	if ok && name != "" && sc.s.ID >= 0 {
		s.Endpoint = p.layout.endpoint(sc.s.ID, sc.group, "SSE "+name, "GET")
		p.layout.protocol(s.Endpoint, s.Protocol)
	}
	if ok {
		var auth string
		if s.URL, auth = p.requestURL(pathNode, src, o, sc); s.URL != nil && s.Endpoint >= 0 {
			p.layout.scheme(s.Endpoint, isPlainURL(s.URL.String()))
		}
		var stepHeaders []field
		if n, has := o.get("headers"); has {
			stepHeaders = p.headerFields(n)
		}
		s.Headers = withAuthorization(p.headers(sc.def.headers, stepHeaders, sc.scope), auth)
	}
	p.sessionLimits(o, s)
	if n, has := o.get("check"); has {
		s.Checks = p.checks(n, s.Endpoint)
	}
	return Step{Kind: SessionStep, Session: s}, len(p.errs.errs) == errsBefore
}

// sessionLimits parses what bounds a session: timeout, duration,
// max_events, max_event_size and reconnect.
func (p *parser) sessionLimits(o *object, s *Session) {
	if n, ok := o.get("timeout"); ok {
		if d, ok := p.positiveDuration(n); ok {
			s.Timeout = d
		}
	}
	if n, ok := o.get("duration"); ok {
		if d, ok := p.positiveDuration(n); ok {
			s.Duration = d
		}
	}
	if n, ok := o.get("max_events"); ok {
		if v, ok := p.count(n, 1); ok {
			s.MaxMessages = v
		}
	}
	if n, ok := o.get("max_event_size"); ok {
		if v, ok := p.size(n); ok && v > 0 {
			s.MaxMessage = v
		} else if ok {
			p.errs.add(n.pos, n.path, "must be above 0")
		}
	}
	if n, ok := o.get("reconnect"); ok {
		if v, ok := p.count(n, 0); ok {
			s.Reconnects = v
		}
	}
	if !o.has("duration") && !o.has("max_events") {
		p.errs.add(o.keyPos("sse"), o.path, "an sse: step needs duration: or max_events: (or both), so that it ends")
	}
}

// isPlainURL reports whether a URL's text is a plain http:// one.
func isPlainURL(u string) bool { return strings.HasPrefix(strings.ToLower(u), "http://") }
