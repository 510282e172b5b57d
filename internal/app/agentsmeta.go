package app

import (
	"encoding/json"
	"math"

	"github.com/loadlens/loadlens/internal/report"
)

// agentsKey is the run.db meta key of a distributed run's per-agent table,
// written at its end so `loadlens report` shows the table again.
const agentsKey = "agents"

// storedAgent is report.Agent with its unknown figures (NaN) as null, which JSON can carry.
type storedAgent struct {
	report.Agent
	Offered *float64 `json:"offered_rps"`
	CPU     *float64 `json:"cpu"`
}

// encodeAgents writes the per-agent table for run.db; "" when there is none.
func encodeAgents(agents []report.Agent) string {
	if len(agents) == 0 {
		return ""
	}
	known := func(v float64) *float64 {
		if math.IsNaN(v) {
			return nil
		}
		return &v
	}
	out := make([]storedAgent, len(agents))
	for i, a := range agents {
		out[i] = storedAgent{Agent: a, Offered: known(a.Offered), CPU: known(a.CPU)}
	}
	b, err := json.Marshal(out)
	if err != nil {
		return "" // cannot happen: every float left is finite
	}
	return string(b)
}

// decodeAgents reads the per-agent table back; nil when the run had none.
func decodeAgents(enc string) ([]report.Agent, error) {
	if enc == "" {
		return nil, nil
	}
	var in []storedAgent
	if err := json.Unmarshal([]byte(enc), &in); err != nil {
		return nil, err
	}
	out := make([]report.Agent, len(in))
	for i, a := range in {
		out[i] = a.Agent
		out[i].Offered, out[i].CPU = math.NaN(), math.NaN()
		if a.Offered != nil {
			out[i].Offered = *a.Offered
		}
		if a.CPU != nil {
			out[i].CPU = *a.CPU
		}
	}
	return out, nil
}

// lostAgent reports whether an agent was lost: the run did not deliver
// the load it planned.
func lostAgent(agents []report.Agent) bool {
	for _, a := range agents {
		if a.LostAt >= 0 {
			return true
		}
	}
	return false
}
