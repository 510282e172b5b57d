package k6

import (
	"strings"

	"github.com/tdewolff/parse/v2/js"
)

// redisClient is a k6/experimental/redis Client: loadlens sends no Redis
// commands, but a set setup() fills with members the script writes is
// data a scenario's requests may pick from (srandmember).
type redisClient struct {
	sets map[string][]string // key → the members setup() added, as text
	at   map[string]string   // key → where setup() added them
}

// redisNew reads new redis.Client(url).
func (s *script) redisNew(n *js.NewExpr) value {
	d, ok := n.X.(*js.DotExpr)
	if !ok || s.redisMod == "" || !isVarNamed(d.X, s.redisMod) || string(d.Y.(js.LiteralExpr).Data) != "Client" {
		return value{}
	}
	return value{kind: "redisClient", ref: &redisClient{sets: map[string][]string{}, at: map[string]string{}}}
}

// redisCall reads a Redis command: setup()'s sadd of written members is
// kept, srandmember of such a set is a random one of them; every other
// command is noted (its load is not Redis's in a test).
func (f *flow) redisCall(cl *redisClient, name string, args []js.Arg, c *js.CallExpr) value {
	at := f.s.at(snippet(c))
	key := ""
	if len(args) > 0 {
		key, _ = f.s.eval(args[0].Value, f).asText()
	}
	switch {
	case name == "sadd" && f.setup && key != "" && !strings.Contains(key, "{{"):
		if members, ok := f.members(args[1:]); ok {
			cl.sets[key], cl.at[key] = append(cl.sets[key], members...), at
			f.s.note("%s: %s: a Redis command, not sent; its members are what srandmember(%q) picks from", at, snippet(c), key)
			return value{}
		}
	case name == "srandmember" && len(args) == 1 && len(cl.sets[key]) > 0:
		f.s.note("%s: %s is one of the members setup() added (%s), picked at random: a change to the set while the test runs is not followed", at, snippet(c), cl.at[key])
		return str(`{{ pick("` + strings.Join(cl.sets[key], `", "`) + `") }}`)
	}
	f.s.note("%s: %s: a Redis command (loadlens sends HTTP, gRPC and WebSocket load, not Redis's)", at, snippet(c))
	return value{}
}

// members evaluates sadd's members, a written array spread included, as
// text a template's pick() can hold.
func (f *flow) members(args []js.Arg) ([]string, bool) {
	var out []string
	for _, a := range args {
		v := f.s.eval(a.Value, f)
		vals := []value{v}
		if a.Rest {
			if v.kind != "arr" {
				return nil, false
			}
			vals = v.arr
		}
		for _, m := range vals {
			t, ok := m.asText()
			if !ok || strings.ContainsAny(t, "\"\\{}") {
				return nil, false
			}
			out = append(out, t)
		}
	}
	return out, len(out) > 0
}
