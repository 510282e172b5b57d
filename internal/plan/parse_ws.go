package plan

import (
	"strings"

	"github.com/loadlens/loadlens/internal/yamldoc"
)

// wsKeys are the keys of a ws: step.
var wsKeys = []string{"ws", "name", "query", "headers", "subprotocols", "timeout", "duration", "max_messages",
	"max_message_size", "send", "reply", "until", "check"}

// wsStep parses a ws: step: a WebSocket session. Its URL is ws:// or
// wss:// (or http(s)://, or a path joined to base_url), dialled as the
// http(s):// URL it upgrades.
func (p *parser) wsStep(o *yamldoc.Object, sc *scenarioCtx) (Step, bool) {
	errsBefore := p.Errs.Len()
	s, urlNode, ok := p.sessionStep(o, sc, "a ws:", "ws", wsKeys)
	if !ok {
		return Step{}, false
	}
	written, ok := p.NonEmpty(urlNode, "a URL like ws://host/chat or a path like /chat")
	src := wsAsHTTP(written)
	named, _, _ := cutUserinfo(written) // an endpoint is never named by its credentials
	name := pathWithoutQuery(named)
	if n, has := o.Get("name"); has {
		name, _ = p.NonEmpty(n, "an endpoint name")
	}
	if ok && name != "" {
		s.Endpoint = p.layout.endpoint(sc.s.ID, sc.group, "WS "+name, "GET")
		p.layout.protocol(s.Endpoint, s.Protocol, true)
	}
	if ok {
		p.sessionTarget(o, urlNode, src, sc, s)
	}
	p.sessionLimits(o, s, limitKeys{max: "max_messages", size: "max_message_size", key: "ws", ends: "duration:, max_messages: or until:"})
	if n, has := o.Get("subprotocols"); has {
		s.Subprotocols = p.words(n)
	}
	if n, has := o.Get("send"); has {
		s.Send = p.sends(n, sc)
	}
	if n, has := o.Get("reply"); has {
		s.Replies = p.wsReplies(n, s.Endpoint, sc)
	}
	if n, has := o.Get("until"); has {
		if c, ok := p.checkOf(n, wsChecks, nil); ok {
			s.Until = &c
			p.replies = append(p.replies, s.Protocol) // its sessions measure a reply time
		}
	}
	if n, has := o.Get("check"); has {
		s.Checks = p.checksOf(n, s.Endpoint, wsChecks, nil)
	}
	for _, snd := range s.Send {
		if snd.Every > 0 && s.Duration == 0 {
			p.Errs.Add(o.KeyPos("send"), o.Path, "a message sent every: needs the step's duration:, so that the session ends")
			break
		}
	}
	return Step{Kind: SessionStep, Session: s}, p.Errs.Len() == errsBefore
}

// wsAsHTTP turns a ws:// or wss:// URL into the http:// or https:// one it
// upgrades, so that it is joined, templated and checked as a request's.
func wsAsHTTP(src string) string {
	lower := strings.ToLower(src)
	switch {
	case strings.HasPrefix(lower, "ws://"):
		return "http://" + src[len("ws://"):]
	case strings.HasPrefix(lower, "wss://"):
		return "https://" + src[len("wss://"):]
	}
	return src
}

// words parses a list of non-empty words (subprotocols).
func (p *parser) words(n yamldoc.Node) []string {
	items, ok := p.List(n, "a list of names like [chat.v1]")
	if !ok {
		return nil
	}
	var out []string
	for _, it := range items {
		if w, ok := p.NonEmpty(it, "a name"); ok {
			out = append(out, w)
		}
	}
	return out
}
