package compare

import (
	"errors"
	"fmt"
)

// GateEndpoints checks that each gate's {endpoint:…} names one endpoint
// of the compared runs, and reports every one that does not: a name no
// run has, or one two scenarios share. That is a mistake in how compare
// was called, as a gate that does not parse is, not a regression of the
// runs; Check alone would fail such a gate as one.
func (r *Report) GateEndpoints(gates []Gate) error {
	var errs []error
	for _, g := range gates {
		if _, err := r.endpointKey(g.Endpoint); err != nil {
			errs = append(errs, fmt.Errorf("gate %q: %w", g.Expr, err))
		}
	}
	return errors.Join(errs...)
}
