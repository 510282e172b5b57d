package plan

import (
	"fmt"
	"slices"

	"github.com/loadlens/loadlens/internal/tmpl"
)

// payloadKeys are the keys that write a ws: message's payload; a message
// has exactly one.
var payloadKeys = []string{"text", "hex", "base64"}

// wsChecks are a ws: step's checks: HTTP's, with binary payloads written
// in hex or base64 (body_contains: {hex: 0a0b}) and size: on a message.
var wsChecks = checkDialect{status: (*parser).statusCheck, example: "{status: 101}", binary: true}

// sends parses a ws: step's send: list.
func (p *parser) sends(n node, sc *scenarioCtx) []Send {
	items, ok := p.list(n, "a list of messages like [{text: hello}]")
	if !ok {
		return nil
	}
	var out []Send
	for _, item := range items {
		o, ok := p.object(item, "a message like {text: hello, every: 1s}", append(slices.Clip(payloadKeys), "every"))
		if !ok {
			continue
		}
		snd, ok := p.payload(o, sc)
		if !ok {
			continue
		}
		if e, has := o.get("every"); has {
			if snd.Every, ok = p.positiveDuration(e); !ok {
				continue
			}
		}
		out = append(out, snd)
	}
	return out
}

// payload parses a message's one payload key: text: a text message; hex:
// or base64: a binary one. A payload without a template is decoded here,
// so that a bad one is an error at its line rather than in the run.
func (p *parser) payload(o *object, sc *scenarioCtx) (Send, bool) {
	var given []field
	for _, f := range o.fields {
		if slices.Contains(payloadKeys, f.name) {
			given = append(given, f)
		}
	}
	switch len(given) {
	case 0:
		p.errs.missing(o.pos, o.path, o.path, "missing key %q: the message to send (or hex: or base64: for a binary one)", "text")
		return Send{}, false
	case 1:
	default:
		p.errs.add(given[1].val.key, given[1].val.path, "a message has one payload: %s and %s both given", given[0].name, given[1].name)
		return Send{}, false
	}
	f := given[0]
	src, ok := p.text(f.val, "the message's "+f.name)
	if !ok {
		return Send{}, false
	}
	snd := Send{Encoding: map[string]Encoding{"hex": Hex, "base64": Base64}[f.name], Binary: f.name != "text"}
	if snd.Text, ok = p.compile(f.val, src, sc.scope); !ok {
		return Send{}, false
	}
	if c, isConst := snd.Text.Const(); isConst && snd.Binary {
		b, err := snd.Encoding.Decode(nil, []byte(c))
		if err != nil {
			p.errs.add(f.val.pos, f.val.path, "%v", err)
			return Send{}, false
		}
		snd.Text, snd.Encoding = tmpl.Literal(string(b)), RawBytes
	}
	return snd, true
}

// replyKeys are the keys of a reply: item.
var replyKeys = append([]string{"on", "extract"}, payloadKeys...)

// wsReplies parses a ws: step's reply: list: each item answers a message
// matching its on: check, with a message rendered after its extract:.
func (p *parser) wsReplies(n node, endpoint int32, sc *scenarioCtx) []Reply {
	items, ok := p.list(n, "a list of replies like [{on: {json: $.type, eq: ping}, text: pong}]")
	if !ok {
		return nil
	}
	var out []Reply
	for _, item := range items {
		o, ok := p.object(item, "a reply like {on: {json: $.type, eq: ping}, text: pong}", replyKeys)
		if !ok {
			continue
		}
		var r Reply
		on, has := o.get("on")
		if !has {
			p.errs.missing(o.pos, o.path, o.path, "missing key %q: the check a message must match to be answered", "on")
			continue
		}
		if r.On, ok = p.checkOf(on, wsChecks); ok && (r.On.From == FromStatus || r.On.From == FromHeader) {
			p.errs.add(on.pos, on.path, "a reply answers a message: on: is a body_contains, body_matches, json or size check")
			ok = false
		}
		if ex, has := o.get("extract"); has {
			r.Extract = p.extracts(ex, endpoint, sc)
			ok = p.messageExtracts(ex, r.Extract) && ok
		}
		snd, sendOK := p.payload(o, sc)
		r.Send = snd
		if ok && sendOK {
			out = append(out, r)
		}
	}
	return out
}

// messageExtracts reports whether every extraction of a reply reads the
// message (json, regex): a header: is the handshake's, not a message's.
func (p *parser) messageExtracts(n node, ex []Extract) bool {
	for _, e := range ex {
		if e.From != FromHeader {
			continue
		}
		at := n
		if o, ok := p.object(n, "", nil); ok { // parsed once already: no second error
			at, _ = o.get(e.Name)
		}
		p.errs.add(at.key, at.path, "a reply extracts from the message it answers: json or regex, not header")
		return false
	}
	return true
}

// bodyContains parses body_contains: a text, or in a dialect with binary
// messages {hex: …} or {base64: …}, the bytes a message must contain.
func (p *parser) bodyContains(n node, d checkDialect) (Check, bool) {
	c := Check{From: FromBody, Op: OpContains}
	if !d.binary || !isMapping(n.v) {
		s, ok := p.nonEmpty(n, "the text the body must contain")
		c.Values, c.Name = []string{s}, fmt.Sprintf("body contains %q", s)
		return c, ok
	}
	o, ok := p.object(n, "bytes written {hex: 0a0b} or {base64: CgsK}", []string{"hex", "base64"})
	if !ok {
		return c, false
	}
	if len(o.fields) != 1 {
		p.errs.add(n.pos, n.path, "one of hex: or base64:")
		return c, false
	}
	f := o.fields[0]
	src, ok := p.nonEmpty(f.val, "the bytes written in "+f.name)
	if !ok {
		return c, false
	}
	b, err := map[string]Encoding{"hex": Hex, "base64": Base64}[f.name].Decode(nil, []byte(src))
	if err != nil {
		p.errs.add(f.val.pos, f.val.path, "%v", err)
		return c, false
	}
	c.Values, c.Name = []string{string(b)}, "body contains "+f.name+" "+src
	return c, true
}

// sizeCheck parses size: {lt: 1024}: a message's length in bytes
// compared with a number.
func (p *parser) sizeCheck(n node) (Check, bool) {
	errsBefore := len(p.errs.errs)
	o, ok := p.object(n, "a comparison like {lt: 1024} or {eq: 16}", []string{"eq", "ne", "lt", "lte", "gt", "gte"})
	if !ok || len(p.errs.errs) > errsBefore { // an unknown key, reported
		return Check{}, false
	}
	if len(o.fields) != 1 {
		p.errs.add(n.pos, n.path, "one comparison: eq, ne, lt, lte, gt or gte")
		return Check{}, false
	}
	f := o.fields[0]
	if _, ok := p.integer(f.val, 0); !ok {
		return Check{}, false
	}
	c := Check{From: FromSize, Values: []string{scalarText(f.val.v)}}
	c.Op = map[string]Op{"eq": OpEq, "ne": OpNe, "lt": OpLt, "lte": OpLte, "gt": OpGt, "gte": OpGte}[f.name]
	c.Name = "size " + opSymbols[f.name] + " " + c.Values[0]
	return c, true
}
