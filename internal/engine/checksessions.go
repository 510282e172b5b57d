package engine

import (
	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/protocol"
)

// CheckSessions checks every session step whose protocol can be checked
// without its server (protocol.Checker), returning the first error, which
// names the step's file and line.
func CheckSessions(p *plan.Plan) error {
	return eachSession(p, func(s *plan.Session, pr protocol.Protocol) error {
		if c, ok := pr.(protocol.Checker); ok {
			return c.Check(s)
		}
		return nil
	})
}
