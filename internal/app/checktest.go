package app

import (
	"github.com/loadlens/loadlens/internal/engine"
	"github.com/loadlens/loadlens/internal/plan"
)

// CheckTest checks what a parsed test's steps need that parsing cannot
// see and no server is needed for (a gRPC method against its .proto
// files), so validate reports it and run stops before its run directory.
func CheckTest(p *plan.Plan) error { return engine.CheckSessions(p) }
