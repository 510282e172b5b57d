package plan

import (
	"fmt"
	"slices"

	"github.com/loadlens/loadlens/internal/tmpl"
	"github.com/loadlens/loadlens/internal/yamldoc"
)

// payloadKeys are the keys that write a ws: message's payload; a message
// has exactly one.
var payloadKeys = []string{"text", "hex", "base64"}

// wsChecks are a ws: step's checks: HTTP's, with binary payloads written
// in hex or base64 (body_contains: {hex: 0a0b}) and size: on a message.
var wsChecks = checkDialect{status: (*parser).statusCheck, example: "{status: 101}", binary: true}

// sends parses a ws: step's send: list.
func (p *parser) sends(n yamldoc.Node, sc *scenarioCtx) []Send {
	items, ok := p.List(n, "a list of messages like [{text: hello}]")
	if !ok {
		return nil
	}
	var out []Send
	for _, item := range items {
		o, ok := p.Object(item, "a message like {text: hello, every: 1s}", append(slices.Clip(payloadKeys), "every"))
		if !ok {
			continue
		}
		snd, ok := p.payload(o, sc)
		if !ok {
			continue
		}
		if e, has := o.Get("every"); has {
			if snd.Every, ok = p.PositiveDuration(e); !ok {
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
func (p *parser) payload(o *yamldoc.Object, sc *scenarioCtx) (Send, bool) {
	var given []yamldoc.Field
	for _, f := range o.Fields {
		if slices.Contains(payloadKeys, f.Name) {
			given = append(given, f)
		}
	}
	switch len(given) {
	case 0:
		p.Errs.Missing(o.Pos, o.Path, o.Path, "missing key %q: the message to send (or hex: or base64: for a binary one)", "text")
		return Send{}, false
	case 1:
	default:
		p.Errs.Add(given[1].Value.Key, given[1].Value.Path, "a message has one payload: %s and %s both given", given[0].Name, given[1].Name)
		return Send{}, false
	}
	f := given[0]
	src, ok := p.Text(f.Value, "the message's "+f.Name)
	if !ok {
		return Send{}, false
	}
	snd := Send{Encoding: map[string]Encoding{"hex": Hex, "base64": Base64}[f.Name], Binary: f.Name != "text"}
	if snd.Text, ok = p.Compile(f.Value, src, sc.scope); !ok {
		return Send{}, false
	}
	if c, isConst := snd.Text.Const(); isConst && snd.Binary {
		b, err := snd.Encoding.Decode(nil, []byte(c))
		if err != nil {
			p.Errs.Add(f.Value.Pos, f.Value.Path, "%v", err)
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
func (p *parser) wsReplies(n yamldoc.Node, endpoint int32, sc *scenarioCtx) []Reply {
	items, ok := p.List(n, "a list of replies like [{on: {json: $.type, eq: ping}, text: pong}]")
	if !ok {
		return nil
	}
	var out []Reply
	for _, item := range items {
		o, ok := p.Object(item, "a reply like {on: {json: $.type, eq: ping}, text: pong}", replyKeys)
		if !ok {
			continue
		}
		var r Reply
		on, has := o.Get("on")
		if !has {
			p.Errs.Missing(o.Pos, o.Path, o.Path, "missing key %q: the check a message must match to be answered", "on")
			continue
		}
		if r.On, ok = p.checkOf(on, wsChecks, nil); ok && (r.On.From == FromStatus || r.On.From == FromHeader) {
			p.Errs.Add(on.Pos, on.Path, "a reply answers a message: on: is a body_contains, body_matches, json or size check")
			ok = false
		}
		if ex, has := o.Get("extract"); has {
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
func (p *parser) messageExtracts(n yamldoc.Node, ex []Extract) bool {
	for _, e := range ex {
		if e.From != FromHeader {
			continue
		}
		at := n
		if o, ok := p.Object(n, "", nil); ok { // parsed once already: no second error
			at, _ = o.Get(e.Name)
		}
		p.Errs.Add(at.Key, at.Path, "a reply extracts from the message it answers: json or regex, not header")
		return false
	}
	return true
}

// bodyContains parses body_contains: a text, or in a dialect with binary
// messages {hex: …} or {base64: …}, the bytes a message must contain.
func (p *parser) bodyContains(n yamldoc.Node, d checkDialect) (Check, bool) {
	c := Check{From: FromBody, Op: OpContains}
	if !d.binary || !yamldoc.IsMapping(n.V) {
		s, ok := p.NonEmpty(n, "the text the body must contain")
		c.Values, c.Name = []string{s}, fmt.Sprintf("body contains %q", s)
		return c, ok
	}
	o, ok := p.Object(n, "bytes written {hex: 0a0b} or {base64: CgsK}", []string{"hex", "base64"})
	if !ok {
		return c, false
	}
	if len(o.Fields) != 1 {
		p.Errs.Add(n.Pos, n.Path, "one of hex: or base64:")
		return c, false
	}
	f := o.Fields[0]
	src, ok := p.NonEmpty(f.Value, "the bytes written in "+f.Name)
	if !ok {
		return c, false
	}
	b, err := map[string]Encoding{"hex": Hex, "base64": Base64}[f.Name].Decode(nil, []byte(src))
	if err != nil {
		p.Errs.Add(f.Value.Pos, f.Value.Path, "%v", err)
		return c, false
	}
	c.Values, c.Name = []string{string(b)}, "body contains "+f.Name+" "+src
	return c, true
}

// sizeCheck parses size: {lt: 1024}: a message's length in bytes
// compared with a number.
func (p *parser) sizeCheck(n yamldoc.Node) (Check, bool) {
	errsBefore := p.Errs.Len()
	o, ok := p.Object(n, "a comparison like {lt: 1024} or {eq: 16}", []string{"eq", "ne", "lt", "lte", "gt", "gte"})
	if !ok || p.Errs.Len() > errsBefore { // an unknown key, reported
		return Check{}, false
	}
	if len(o.Fields) != 1 {
		p.Errs.Add(n.Pos, n.Path, "one comparison: eq, ne, lt, lte, gt or gte")
		return Check{}, false
	}
	f := o.Fields[0]
	if _, ok := p.Integer(f.Value, 0); !ok {
		return Check{}, false
	}
	c := Check{From: FromSize, Values: []string{p.ValueText(f.Value)}}
	c.Op = map[string]Op{"eq": OpEq, "ne": OpNe, "lt": OpLt, "lte": OpLte, "gt": OpGt, "gte": OpGte}[f.Name]
	c.Name = "size " + opSymbols[f.Name] + " " + c.Values[0]
	return c, true
}
