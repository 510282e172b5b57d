package report

import (
	"math"
	"strconv"
)

// Num is a number the pages and summaries carry as JSON: NaN and the
// infinities (a figure over seconds without points) are written as null,
// which JSON can hold, instead of failing the whole page.
type Num float64

// MarshalJSON writes n, or null when it is not a finite number.
func (n Num) MarshalJSON() ([]byte, error) {
	f := float64(n)
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return []byte("null"), nil
	}
	return strconv.AppendFloat(nil, f, 'g', -1, 64), nil
}
