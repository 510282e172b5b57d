package engine

import (
	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/protocol"
)

// CheckSessions checks every session step whose protocol can be checked
// without its server (protocol.Checker), returning the first error, which
// names the step's file and line.
func CheckSessions(p *plan.Plan) error {
	reg := protocols()
	var err error
	for _, s := range p.Scenarios {
		plan.Walk(s.Flow, func(st *plan.Step) {
			if err != nil || st.Kind != plan.SessionStep {
				return
			}
			if c, ok := reg[st.Session.Protocol].(protocol.Checker); ok {
				err = c.Check(st.Session)
			}
		})
	}
	return err
}
