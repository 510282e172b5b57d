package metrics

import (
	"encoding/binary"
	"fmt"
	"slices"
	"strconv"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/threshold"
)

// StatusFigures is an endpoint's requests answered with one of the
// statuses a threshold names (Layout.Statuses): how many, and their durations.
type StatusFigures struct {
	Requests int64
	Duration *Hist // nil when none
}

// statusWindow is one kept status's part of an endpoint's window.
type statusWindow struct {
	requests int64
	duration *hdr.Histogram // allocated on first use, kept across reuse
}

// status records a request's status when a threshold names it; the
// caller holds the shard's lock.
func (w *window) status(kept []int, r *sample.Request, d int64) {
	i := slices.Index(kept, r.Status)
	if i < 0 {
		return
	}
	if w.byStatus == nil {
		w.byStatus = make([][]statusWindow, len(w.endpoints))
	}
	bs := w.byStatus[r.Endpoint]
	if bs == nil {
		bs = make([]statusWindow, len(kept))
		w.byStatus[r.Endpoint] = bs
	}
	s := &bs[i]
	s.requests++
	if s.duration == nil {
		s.duration = newDense()
	}
	_ = s.duration.RecordValue(d)
}

// resetStatuses empties endpoint i's kept statuses, keeping their histograms.
func (w *window) resetStatuses(i int) {
	if w.byStatus == nil {
		return
	}
	for j := range w.byStatus[i] {
		w.byStatus[i][j].requests = 0
		resetDense(w.byStatus[i][j].duration)
	}
}

// statusesOf returns endpoint i's kept statuses in window w, nil when none.
func (w *window) statusesOf(i int) []statusWindow {
	if w.byStatus == nil {
		return nil
	}
	return w.byStatus[i]
}

// statusFigures merges endpoint i's kept statuses over the windows; nil
// when the layout keeps none.
func statusFigures(taken []*window, i, kept int) []StatusFigures {
	if kept == 0 {
		return nil
	}
	out := make([]StatusFigures, kept)
	for j := range out {
		for _, w := range taken {
			if bs := w.statusesOf(i); bs != nil {
				out[j].Requests += bs[j].requests
			}
		}
		out[j].Duration = sumDense(taken, func(w *window) *hdr.Histogram {
			if bs := w.statusesOf(i); bs != nil {
				return bs[j].duration
			}
			return nil
		})
	}
	return out
}

// mergeStatuses adds o's kept statuses into f's.
func mergeStatuses(f, o []StatusFigures) []StatusFigures {
	if len(o) == 0 {
		return f
	}
	if f == nil {
		f = make([]StatusFigures, len(o))
	}
	for i := range o {
		if i < len(f) {
			f[i].Requests += o[i].Requests
			f[i].Duration = mergeHist(f[i].Duration, o[i].Duration)
		}
	}
	return f
}

// appendStatuses appends the kept statuses' section of a snapshot: their
// number, then each endpoint's figures per status.
func appendStatuses(b []byte, hc *histCodec, s *Snapshot) ([]byte, error) {
	n := keptStatuses(s)
	b = binary.AppendUvarint(b, uint64(n))
	if n == 0 {
		return b, nil
	}
	var err error
	for i := range s.Endpoints {
		bs := s.Endpoints[i].ByStatus
		for j := range n {
			var f StatusFigures
			if j < len(bs) {
				f = bs[j]
			}
			b = binary.AppendVarint(b, f.Requests)
			if b, err = appendHist(b, hc, f.Duration); err != nil {
				return nil, fmt.Errorf("snapshot of second %d: endpoint %d's status %d: %w", s.Second, i, j, err)
			}
		}
	}
	return b, nil
}

// keptStatuses returns how many statuses s's endpoints keep.
func keptStatuses(s *Snapshot) int {
	for i := range s.Endpoints {
		if n := len(s.Endpoints[i].ByStatus); n > 0 {
			return n
		}
	}
	return 0
}

// statuses reads the kept statuses' section of a snapshot.
func (d *decoder) statuses(eps []EndpointSecond) {
	n := d.length("number of kept statuses", 2)
	if n == 0 {
		return
	}
	for i := range eps {
		eps[i].ByStatus = make([]StatusFigures, n)
		for j := 0; j < n && d.err == nil; j++ {
			eps[i].ByStatus[j].Requests = d.count("status requests")
			eps[i].ByStatus[j].Duration = d.hist("status duration histogram")
		}
	}
}

// statusFilter returns the index in the layout's kept statuses of a
// filter's status tag: -1 when it has none, and false when its status is
// not kept.
func (r *Run) statusFilter(filter []threshold.Tag) (int, bool) {
	for _, f := range filter {
		if f.Key != "status" {
			continue
		}
		code, err := strconv.Atoi(f.Value)
		i := slices.Index(r.Layout.Statuses, code)
		return i, err == nil && i >= 0
	}
	return -1, true
}
