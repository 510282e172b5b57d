package plan

import (
	"slices"
	"time"

	"github.com/loadlens/loadlens/internal/yamldoc"
)

// hook parses a setup: or teardown: flow. Its variables are those its
// steps set, after inherited (the setup's, for a teardown).
func (p *parser) hook(n yamldoc.Node, def *defaults, inherited []string) *Hook {
	s := &Scenario{ID: -1, Name: n.Path, Vars: slices.Clone(inherited)}
	for _, v := range p.extractNames(n) {
		if !slices.Contains(s.Vars, v) {
			s.Vars = append(s.Vars, v)
		}
	}
	sc := &scenarioCtx{s: s, scope: scenarioScope(s, p.Env), def: def}
	return &Hook{Flow: p.flow(n, sc), Vars: s.Vars}
}

// hookTimeout reads a hook's bound, key (setup_timeout, teardown_timeout),
// or DefaultHookTimeout when the test sets none.
func (p *parser) hookTimeout(o *yamldoc.Object, key string) time.Duration {
	if n, ok := o.Get(key); ok {
		if d, ok := p.PositiveDuration(n); ok {
			return d
		}
	}
	return DefaultHookTimeout
}
