package app

import (
	"encoding/json"

	"github.com/loadlens/loadlens/internal/plan"
)

// bodyCaps returns each endpoint's max_body, the cap past which a body a
// check or extraction needs is truncated; 0 where the endpoint's steps have
// different caps, so that a report never names a cap a body did not meet.
func bodyCaps(p *plan.Plan) []int64 {
	caps := make([]int64, len(p.Layout.Endpoints))
	seen := make([]bool, len(caps))
	for _, sc := range p.Scenarios {
		plan.Walk(sc.Flow, func(st *plan.Step) {
			r := st.Request
			if st.Kind != plan.RequestStep || r == nil || r.Endpoint < 0 || int(r.Endpoint) >= len(caps) {
				return
			}
			i := r.Endpoint
			switch {
			case !seen[i]:
				caps[i], seen[i] = r.MaxBody, true
			case caps[i] != r.MaxBody:
				caps[i] = 0
			}
		})
	}
	return caps
}

// encodeBodyCaps keeps the caps in run.db's metadata, for reports rebuilt later.
func encodeBodyCaps(caps []int64) string {
	b, _ := json.Marshal(caps) // a slice of numbers cannot fail to marshal
	return string(b)
}

// decodeBodyCaps reads the caps back; runs recorded before they were kept
// have none, and their reports say "past max_body".
func decodeBodyCaps(s string) []int64 {
	var caps []int64
	if s != "" && json.Unmarshal([]byte(s), &caps) != nil {
		return nil
	}
	return caps
}
