package plan

import "time"

// ShortestTimeout is the least timeout of the test's request and session
// steps (a WebSocket wait or an SSE stream that times out fails as a
// timeout too): a step that timed out waited at least this long for its
// answer, or the connect timeout (30 s) when that is shorter. It is the
// test's default timeout when no scenario sends anything.
func (p *Plan) ShortestTimeout() time.Duration {
	least := time.Duration(0)
	shorter := func(d time.Duration) {
		if d > 0 && (least == 0 || d < least) {
			least = d
		}
	}
	for _, s := range p.Scenarios {
		Walk(s.Flow, func(st *Step) {
			switch {
			case st.Kind == RequestStep && st.Request != nil:
				shorter(st.Request.Timeout)
			case st.Kind == SessionStep && st.Session != nil:
				shorter(st.Session.Timeout)
			}
		})
	}
	if least == 0 {
		return p.Timeout
	}
	return least
}
