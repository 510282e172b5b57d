package dist

import "github.com/loadlens/loadlens/internal/metrics"

// Progress is the run as the coordinator has merged it so far: what a
// coordinator in a pod publishes for `loadlens k8s status`.
type Progress struct {
	Second   int   // the second just merged (from 0)
	Agents   int   // agents the run started with
	Lost     int   // agents lost so far
	Ended    int   // agents that finished their segment
	Requests int64 // requests merged so far, every second until this one
	Failures int64 // of which failed
	InFlight int64 // requests sent and not answered, as last reported
}

// progressAfter adds second snap's figures to p and counts the agents; g.mu is held.
func (g *generator) progressAfter(snap *metrics.Snapshot) Progress {
	p := &g.progress
	p.Second, p.Agents, p.Lost, p.Ended, p.InFlight = snap.Second, len(g.agents), 0, 0, 0
	for _, e := range snap.Endpoints {
		p.Requests += e.Requests
		for _, f := range e.Failures {
			p.Failures += f
		}
	}
	for _, a := range g.agents {
		switch {
		case a.lost:
			p.Lost++
		case a.done:
			p.Ended++
		default:
			p.InFlight += a.inFlight
		}
	}
	return *p
}
