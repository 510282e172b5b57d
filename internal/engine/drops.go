package engine

import "github.com/loadlens/loadlens/internal/sample"

// Drops returns, in plan order, the open-model scenarios that dropped
// iterations and why, as their notices say it: for Run's caller once it
// returned.
func (e *Engine) Drops() []sample.Drops {
	var out []sample.Drops
	for _, sc := range e.scens {
		if d := sc.drops.Load(); d != nil {
			out = append(out, *d)
		}
	}
	return out
}
