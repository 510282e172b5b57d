package diagnose

import (
	"encoding/json"
	"math"
)

// MarshalJSON writes a figure with an unknown value (NaN, an infinity:
// a statistic over seconds without points) as null, which JSON can carry,
// so a page or summary that holds it is still written.
func (f Figure) MarshalJSON() ([]byte, error) {
	type plain Figure // without this method
	var v *float64
	if !math.IsNaN(f.Value) && !math.IsInf(f.Value, 0) {
		v = &f.Value
	}
	return json.Marshal(struct {
		Value *float64 `json:"value"`
		plain
	}{v, plain(f)})
}
