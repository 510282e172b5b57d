package engine

import (
	"context"
	"math/rand/v2"
	"sync/atomic"

	"github.com/loadlens/loadlens/internal/plan"
)

// feeder hands CSV rows to iterations in the scenario's data mode: from
// memory, or, for a file too large to hold, from a stream that one reader
// fills as the VUs take rows.
type feeder struct {
	rows   [][]string
	mode   plan.DataMode
	lo, hi int64 // Unique: this segment's rows, so agents never share one
	cursor atomic.Int64
	stream *rowStream // the rows of a file not held; nil when rows are
}

// fed says how next went.
type fed uint8

const (
	gotRow fed = iota
	ranOut     // unique rows ran out
	notFed     // the run is stopping: no row, and no more will come
)

func newFeeder(d *plan.Data, seg plan.Segment) *feeder {
	n := int64(len(d.Rows))
	if d.Stream != nil {
		n = d.Count
	}
	f := &feeder{rows: d.Rows, mode: d.Mode, hi: n}
	if d.Mode == plan.Unique {
		lo, hi := seg.Range(int(n))
		f.lo, f.hi = int64(lo), int64(hi)
	}
	if d.Stream != nil {
		f.stream = newRowStream(d, f.lo, f.hi)
	}
	return f
}

// next returns the row for the next iteration.
func (f *feeder) next(ctx context.Context, rng *rand.Rand) ([]string, fed) {
	if f.stream != nil {
		return f.stream.next(ctx)
	}
	switch f.mode {
	case plan.Random:
		return f.rows[rng.IntN(len(f.rows))], gotRow
	case plan.Unique:
		i := f.lo + f.cursor.Add(1) - 1
		if i >= f.hi {
			return nil, ranOut
		}
		return f.rows[i], gotRow
	default:
		return f.rows[(f.cursor.Add(1)-1)%int64(len(f.rows))], gotRow
	}
}

// next takes the next row the reader has ready, waiting for one if it must.
func (s *rowStream) next(ctx context.Context) ([]string, fed) {
	select {
	case row, ok := <-s.rows:
		if !ok {
			return nil, ranOut
		}
		return row, gotRow
	case <-ctx.Done():
		return nil, notFed
	}
}
