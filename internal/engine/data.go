package engine

import (
	"math/rand/v2"
	"sync/atomic"

	"github.com/loadlens/loadlens/internal/plan"
)

// feeder hands CSV rows to iterations in the scenario's data mode.
type feeder struct {
	rows   [][]string
	mode   plan.DataMode
	lo, hi int // Unique: this segment's rows, so agents never share one
	cursor atomic.Int64
}

func newFeeder(d *plan.Data, seg plan.Segment) *feeder {
	f := &feeder{rows: d.Rows, mode: d.Mode, hi: len(d.Rows)}
	if d.Mode == plan.Unique {
		f.lo, f.hi = seg.Range(len(d.Rows))
	}
	return f
}

// next returns the row for the next iteration, or false when unique rows ran out.
func (f *feeder) next(rng *rand.Rand) ([]string, bool) {
	switch f.mode {
	case plan.Random:
		return f.rows[rng.IntN(len(f.rows))], true
	case plan.Unique:
		i := f.lo + int(f.cursor.Add(1)-1)
		if i >= f.hi {
			return nil, false
		}
		return f.rows[i], true
	default:
		return f.rows[int((f.cursor.Add(1)-1)%int64(len(f.rows)))], true
	}
}
