package metrics

import (
	"time"

	"github.com/loadlens/loadlens/internal/sample"
)

// Figures are an endpoint's counts, byte totals, connection times and
// histograms, of one second (EndpointSecond) or of a whole run
// (EndpointTotal): what merges exactly, the same way in both.
type Figures struct {
	Requests       int64
	Failures       [sample.NumKinds]int64 // per outcome kind; Failures[sample.OK] stays 0
	Truncated      int64                  // responses whose body was longer than the step's max_body
	Sent, Received int64                  // bytes
	Duration       *Hist                  // nil when no requests
	Waiting        *Hist                  // nil when no requests
	Expected       *Hist                  // successful requests' durations, when the layout keeps them (KeepExpected); else nil
	ByStatus       []StatusFigures        // per status a threshold names (Layout.Statuses); nil when none does
	ConnectSum     time.Duration          // over new connections only
	TLSSum         time.Duration          // over TLS handshakes only
	Connects       int64
	TLSHandshakes  int64
	ConnectMax     time.Duration
	TLSMax         time.Duration
	Facts          *FactFigures // a session protocol's facts; nil for HTTP endpoints
}

// merge adds o to f: counts and sums add, histograms merge, maxima keep
// the larger.
func (f *Figures) merge(o *Figures) {
	f.Requests += o.Requests
	for k := range f.Failures {
		f.Failures[k] += o.Failures[k]
	}
	f.Truncated += o.Truncated
	f.Sent += o.Sent
	f.Received += o.Received
	f.Duration = mergeHist(f.Duration, o.Duration)
	f.Waiting = mergeHist(f.Waiting, o.Waiting)
	f.Expected = mergeHist(f.Expected, o.Expected)
	f.ByStatus = mergeStatuses(f.ByStatus, o.ByStatus)
	f.ConnectSum += o.ConnectSum
	f.TLSSum += o.TLSSum
	f.Connects += o.Connects
	f.TLSHandshakes += o.TLSHandshakes
	f.ConnectMax = max(f.ConnectMax, o.ConnectMax)
	f.TLSMax = max(f.TLSMax, o.TLSMax)
	f.Facts = mergeFacts(f.Facts, o.Facts)
}
