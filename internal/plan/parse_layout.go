package plan

import "github.com/loadlens/loadlens/internal/sample"

// layoutBuilder hands out the ids of scenarios, endpoints and checks as the
// parser meets them, so that equal names share an id.
type layoutBuilder struct {
	layout    sample.Layout
	endpoints map[endpointKey]int32
	checks    map[checkKey]int32
	// broken names the checks the test defines that have errors of their
	// own: not in the layout, but named when a threshold's filter misses.
	broken  []string
	schemed map[int32]bool // endpoints whose Plain was set by a request
}

// endpointKey identifies an endpoint: endpoints are per scenario.
type endpointKey struct {
	scenario int32
	group    string
	name     string
}

// checkKey identifies a check: checks are per endpoint (and so per scenario).
type checkKey struct {
	endpoint int32
	name     string
}

// scenario adds a scenario and returns its id.
func (b *layoutBuilder) scenario(name string, m Model) int32 {
	b.layout.Scenarios = append(b.layout.Scenarios, sample.ScenarioInfo{Name: name, Model: m.String()})
	return int32(len(b.layout.Scenarios) - 1)
}

// endpoint returns the id of the scenario's endpoint name, adding it when new.
func (b *layoutBuilder) endpoint(scenario int32, group, name, method string) int32 {
	k := endpointKey{scenario, group, name}
	if id, ok := b.endpoints[k]; ok {
		return id
	}
	if b.endpoints == nil {
		b.endpoints = map[endpointKey]int32{}
	}
	id := int32(len(b.layout.Endpoints))
	b.layout.Endpoints = append(b.layout.Endpoints, sample.EndpointInfo{Scenario: scenario, Name: name, Method: method, Group: group})
	b.endpoints[k] = id
	return id
}

// scheme records whether a request of endpoint id goes to a plain http://
// URL: the endpoint is plain when all of its requests do.
func (b *layoutBuilder) scheme(id int32, plain bool) {
	if b.schemed == nil {
		b.schemed = map[int32]bool{}
	}
	e := &b.layout.Endpoints[id]
	e.Plain = plain && (e.Plain || !b.schemed[id])
	b.schemed[id] = true
}

// protocol marks endpoint id as a session protocol's, whose facts its
// metrics carry under the protocol's name; session says its samples are
// sessions held open, not calls answered (sample.EndpointInfo.Session).
func (b *layoutBuilder) protocol(id int32, name string, session bool) {
	b.layout.Endpoints[id].Protocol = name
	b.layout.Endpoints[id].Session = session
}

// group returns the id of the scenario's group name, adding it when new:
// two steps of one scenario with the same group name share its timings.
func (b *layoutBuilder) group(scenario int32, name string) int32 {
	for i, g := range b.layout.Groups {
		if g.Scenario == scenario && g.Name == name {
			return int32(i)
		}
	}
	b.layout.Groups = append(b.layout.Groups, sample.GroupInfo{Scenario: scenario, Name: name})
	return int32(len(b.layout.Groups) - 1)
}

// check returns the id of the endpoint's check name, adding it when new.
func (b *layoutBuilder) check(endpoint int32, name string) int32 {
	k := checkKey{endpoint, name}
	if id, ok := b.checks[k]; ok {
		return id
	}
	if b.checks == nil {
		b.checks = map[checkKey]int32{}
	}
	id := int32(len(b.layout.Checks))
	scenario := b.layout.Endpoints[endpoint].Scenario
	b.layout.Checks = append(b.layout.Checks, sample.CheckInfo{Scenario: scenario, Endpoint: endpoint, Name: name})
	b.checks[k] = id
	return id
}

// names returns the distinct names the layout defines for a threshold
// filter key (scenario, endpoint or check), in order of appearance.
func (b *layoutBuilder) names(key string) []string {
	var out []string
	seen := map[string]bool{}
	add := func(s string) {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	switch key {
	case "scenario":
		for _, s := range b.layout.Scenarios {
			add(s.Name)
		}
	case "endpoint":
		for _, e := range b.layout.Endpoints {
			add(e.Name)
		}
	case "check":
		for _, c := range b.layout.Checks {
			add(c.Name)
		}
	case "group":
		for _, g := range b.layout.Groups {
			add(g.Name)
		}
	}
	return out
}
