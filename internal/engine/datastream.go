package engine

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/loadlens/loadlens/internal/plan"
)

// rowStream reads a data file too large to hold, in the order the
// scenario's mode hands its rows out, a few rows ahead of the VUs: memory
// stays a few rows whatever the file, and the VUs' side is a channel
// receive, which does not allocate.
type rowStream struct {
	d      *plan.Data
	lo, hi int64 // Unique: the rows of this segment
	rows   chan []string
	window [][]string // random: rows read, handed over in a random order
}

// randomRun is how many rows in a row random mode reads from a random
// place in the file: reaching a row costs reading those before it in its
// block of the index (about 500), so a run of 64 keeps that small, and
// the window mixes several runs.
const randomRun = 64

// streamAhead is about the bytes of rows read ahead of the VUs.
const streamAhead = 4 << 20

func newRowStream(d *plan.Data, lo, hi int64) *rowStream {
	ahead := min(max(streamAhead/max(d.Stream.MaxRow, 1), 4), 256)
	return &rowStream{d: d, lo: lo, hi: hi, rows: make(chan []string, ahead)}
}

// errStopped ends reading when the scenario ends.
var errStopped = errors.New("stopped")

// run fills the stream until ctx ends or, in mode unique, the segment's
// rows are all handed out (it then closes the stream). Sequential reads
// the file from the first row to the last, again and again; random reads
// runs of rows from random places (wrapping at the end, so every row is
// as likely), shuffled in a window as large as the stream's buffer.
func (s *rowStream) run(ctx context.Context, rng *rand.Rand) error {
	count := s.d.Count
	var err error
	switch s.d.Mode {
	case plan.Unique:
		if err = s.send(ctx, s.lo, s.hi-s.lo, nil); err == nil {
			close(s.rows)
		}
	case plan.Random:
		for err == nil {
			from := rng.Int64N(count)
			if err = s.send(ctx, from, min(randomRun, count-from), rng); err == nil && from+randomRun > count {
				err = s.send(ctx, 0, min(from+randomRun-count, from), rng)
			}
		}
	default:
		for err == nil {
			err = s.send(ctx, 0, count, nil)
		}
	}
	if errors.Is(err, errStopped) {
		return nil
	}
	return err
}

// send reads n rows from row from and hands them over in order or, with
// rng, through the shuffling window.
func (s *rowStream) send(ctx context.Context, from, n int64, rng *rand.Rand) error {
	f, r, err := s.d.Stream.OpenRows(from, len(s.d.Columns))
	if err != nil {
		return err
	}
	defer f.Close()
	for i := int64(0); i < n; i++ {
		row, err := r.Read()
		if err != nil {
			return fmt.Errorf("row %d: %w (did it change since the test was read?)", from+i+1, err)
		}
		if rng != nil {
			if s.window = append(s.window, row); len(s.window) < cap(s.rows) {
				continue
			}
			j := rng.IntN(len(s.window))
			row, s.window[j] = s.window[j], s.window[len(s.window)-1]
			s.window = s.window[:len(s.window)-1]
		}
		if err := s.put(ctx, row); err != nil {
			return err
		}
	}
	return nil
}

// put hands a row over, waiting for room until ctx ends.
func (s *rowStream) put(ctx context.Context, row []string) error {
	select {
	case s.rows <- row:
		return nil
	case <-ctx.Done():
		return errStopped
	}
}

// feedStream starts reading the scenario's streamed data file; a file
// that cannot be read fails the run. stop ends the reading and waits for
// it: the scenario calls it once its VUs are done.
func (sc *scenarioRun) feedStream(ctx context.Context) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), uint64(len(sc.s.Name))))
	go func() {
		defer close(done)
		if err := sc.feed.stream.run(ctx, rng); err != nil && ctx.Err() == nil {
			sc.e.fail(fmt.Errorf("scenario %s: data file %s: %w", sc.s.Name, sc.s.Data.File, err))
		}
	}()
	return func() {
		cancel()
		<-done
	}
}
