// Package history turns the summaries of many runs into series, one per
// test and load shape, and finds where each endpoint's figures changed
// level (change points). It is pure: runs come in as data, series and
// change points go out as data; storing runs and rendering pages are
// other packages' work.
package history

import (
	"crypto/sha256"
	"encoding/hex"
	"sort"
	"time"
)

// Run is what history keeps of one run: its labels, its load shape and
// its figures, not its per-second data.
type Run struct {
	ID        string            `json:"id"`   // the run directory's name, unique per host
	Host      string            `json:"host"` // where it ran: a shared store holds several hosts' runs
	Path      string            `json:"path"` // the run directory's absolute path on its host: with Host, the run's key
	Dir       string            `json:"-"`    // the run directory as found here; "" when only a store knows the run
	Name      string            `json:"name"` // the test's name
	Start     time.Time         `json:"start"`
	Status    string            `json:"status"`    // completed, aborted, interrupted, failed or incomplete
	ExitCode  int               `json:"exit_code"` // NoExitCode for a run that never finished
	Tags      map[string]string `json:"tags,omitempty"`
	Shape     string            `json:"shape"`    // the load shape in words, e.g. "browse: 50/s for 2m"
	ShapeID   string            `json:"shape_id"` // a fingerprint of Shape: runs of one series share it
	Elapsed   time.Duration     `json:"elapsed_ns"`
	Requests  int64             `json:"requests"`
	RPS       float64           `json:"rps"`
	ErrorRate float64           `json:"error_rate"`
	Findings  int               `json:"findings"`
	// Thresholds is how many thresholds judged the run: 0 for a run
	// without any, whose exit code 0 passed nothing; nil in a record of
	// an earlier build, which did not keep it.
	Thresholds *int `json:"thresholds,omitempty"`
	// Disturbed is, when the run's own diagnosis found the load generator
	// or its host limited it (generator-bound, generator-host-busy), that
	// finding's kind: its figures are not the target's.
	Disturbed string `json:"disturbed,omitempty"`
	// Lag is the generator's scheduling lag over the run, which says of a
	// disturbed run which figures its generator could have moved
	// (LeftOut); nil when none was recorded.
	Lag       *Lag       `json:"lag,omitempty"`
	Endpoints []Endpoint `json:"endpoints"`
	Capacity  *Capacity  `json:"capacity,omitempty"` // a capacity search's outcome; nil for a run
}

// NoExitCode is the exit code of a run whose process never finished (killed
// with SIGKILL, its machine stopped): run.db recorded no end, and no code
// is made up for it.
const NoExitCode = -1

// Capacity is what history keeps of a capacity search (`loadlens
// capacity`): the highest rate that held the SLO, which the road from 2 to
// 10,000 TPS is counted in.
type Capacity struct {
	Highest         float64 `json:"highest"`          // iterations/s; 0: no step held the SLO
	HighestRequests float64 `json:"highest_requests"` // the same in requests/s
	Steps           int     `json:"steps"`            // steps run, retries included
	Stop            string  `json:"stop"`             // why the search ended, e.g. "converged"
}

// Endpoint is one endpoint's figures in a run.
type Endpoint struct {
	Name      string        `json:"name"` // "scenario › endpoint" when the test has several scenarios
	Requests  int64         `json:"requests"`
	RPS       float64       `json:"rps"`
	ErrorRate float64       `json:"error_rate"`
	P50       time.Duration `json:"p50_ns"`
	P95       time.Duration `json:"p95_ns"`
	P99       time.Duration `json:"p99_ns"`
}

// Key is what identifies a run in a store shared by several hosts: two
// runs of one test started in the same second on one host, into two
// results folders, share an ID but not a path.
func (r Run) Key() string {
	if r.Path == "" {
		return r.Host + ":" + r.ID
	}
	return r.Host + ":" + r.Path
}

// Analysed reports whether a run's figures count for change points, some
// of them at least: only a run that completed measured the whole load its
// shape says (a failed threshold still completes), and a run its generator
// disturbed counts only for the figures its generator's delay could not
// explain a material part of (LeftOut): a busy host's p99 of 2 s read as a
// level that a 10× slower target "improved" on, while a lag p99 of 84 ms
// beside a p50 of 22 ms left out runs whose p50 it did not move.
// A run left out of every figure of every endpoint is not analysed.
func (r *Run) Analysed() bool {
	for _, e := range r.Endpoints {
		for _, f := range Figures {
			if r.LeftOut(f, e) == "" {
				return true
			}
		}
	}
	return len(r.Endpoints) == 0 && r.Status == "completed" && r.Disturbed == ""
}

// Endpoint returns the run's endpoint of that name.
func (r *Run) Endpoint(name string) (Endpoint, bool) {
	for _, e := range r.Endpoints {
		if e.Name == name {
			return e, true
		}
	}
	return Endpoint{}, false
}

// SortOldestFirst orders runs by start, then by ID, so that a series reads
// left to right as the charts draw it.
func SortOldestFirst(runs []Run) {
	sort.SliceStable(runs, func(i, j int) bool {
		if !runs[i].Start.Equal(runs[j].Start) {
			return runs[i].Start.Before(runs[j].Start)
		}
		return runs[i].Key() < runs[j].Key()
	})
}

// ShapeID is the fingerprint of a load shape's words: the first 12 hex
// digits of their SHA-256, enough to tell a team's shapes apart.
func ShapeID(shape string) string {
	sum := sha256.Sum256([]byte(shape))
	return hex.EncodeToString(sum[:6])
}
