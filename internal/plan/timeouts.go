package plan

import "time"

// ShortestTimeout is the least request timeout of the test's scenarios:
// a request that timed out waited at least this long for its answer. It
// is the test's default timeout when no scenario sends a request.
func (p *Plan) ShortestTimeout() time.Duration {
	least := time.Duration(0)
	for _, s := range p.Scenarios {
		Walk(s.Flow, func(st *Step) {
			if st.Kind == RequestStep && st.Request != nil && st.Request.Timeout > 0 && (least == 0 || st.Request.Timeout < least) {
				least = st.Request.Timeout
			}
		})
	}
	if least == 0 {
		return p.Timeout
	}
	return least
}
