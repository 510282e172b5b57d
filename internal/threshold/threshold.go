package threshold

import "time"

// Tag is one filter of a threshold's metric, e.g. endpoint:"GET /x".
type Tag struct {
	Key   string
	Value string
}

// AggKind is the aggregation a threshold compares.
type AggKind uint8

// The aggregations.
const (
	Percentile AggKind = iota // p(N)
	Avg
	Min
	Max
	Med
	Rate  // failure/check ratio for rate metrics, per second for counters
	Count // total count
	Value // last value for gauges
)

// Op is a threshold's comparison.
type Op uint8

// The comparisons.
const (
	Lt Op = iota
	Lte
	Gt
	Gte
	Eq
	Ne
)

// Threshold is one pass/fail criterion on a run metric.
type Threshold struct {
	Metric         string // e.g. "http_req_duration"
	Filter         []Tag  // empty for the whole metric
	Key            string // the metric as written, with its filter
	Expr           string // the expression as written, e.g. "p(95) < 800ms"
	Agg            AggKind
	P              float64 // Percentile: 0..100
	Op             Op
	Value          float64       // in the metric's unit: ms for times, 0..1 for rates
	AbortOnFail    bool          // stop the run as soon as this fails
	DelayAbortEval time.Duration // don't abort before this much of the run has passed
	Custom         *Custom       // the test's own metric it judges; nil for a built-in one
}
