package plan

import "slices"

// hook parses a setup: or teardown: flow. Its variables are those its
// steps set, after inherited (the setup's, for a teardown).
func (p *parser) hook(n node, def *defaults, inherited []string) *Hook {
	s := &Scenario{ID: -1, Name: n.path, Vars: slices.Clone(inherited)}
	for _, v := range p.extractNames(n) {
		if !slices.Contains(s.Vars, v) {
			s.Vars = append(s.Vars, v)
		}
	}
	sc := &scenarioCtx{s: s, scope: scenarioScope(s, p.env), def: def}
	return &Hook{Flow: p.flow(n, sc), Vars: s.Vars}
}
