package threshold

import "strconv"

// New parses a threshold from its key and expression, keeping both as
// written. AbortOnFail and DelayAbortEval are left for the caller to set.
func New(key, expr string) (Threshold, error) {
	return NewIn(key, expr, nil)
}

// NewIn is New for a test that declares custom metrics.
func NewIn(key, expr string, custom []Custom) (Threshold, error) {
	metric, filter, err := ParseKeyIn(key, custom)
	if err != nil {
		return Threshold{}, err
	}
	agg, p, op, value, err := ParseExprIn(metric, expr, custom)
	if err != nil {
		return Threshold{}, err
	}
	return Threshold{Metric: metric, Filter: filter, Key: key, Expr: expr, Agg: agg, P: p, Op: op, Value: value,
		Custom: findCustom(metric, custom)}, nil
}

// Pass reports whether an observed aggregate satisfies the threshold. A
// NaN observation passes only !=.
func (t *Threshold) Pass(observed float64) bool {
	switch t.Op {
	case Lt:
		return observed < t.Value
	case Lte:
		return observed <= t.Value
	case Gt:
		return observed > t.Value
	case Gte:
		return observed >= t.Value
	case Eq:
		return observed == t.Value
	case Ne:
		return observed != t.Value
	}
	return false
}

// Evaluate returns the threshold's result for an observation. With no data
// it fails, with the reason NoData (k6 passes it; a gate that nothing was
// measured for has shown nothing); Aborted is left for the caller.
func (t *Threshold) Evaluate(observed float64, hasData bool) Result {
	if !hasData {
		return Result{Key: t.Key, Expr: t.Expr, Reason: NoData, NothingYet: true}
	}
	return Result{Key: t.Key, Expr: t.Expr, Observed: observed, HasData: true, Pass: t.Pass(observed)}
}

// NoData is the reason of a threshold whose metric recorded nothing.
const NoData = "no data"

// Unit returns the unit of observed values for display: "ms" for times,
// "/s" for per-second rates, "B" and "B/s" for data metrics, "" for rates
// (0..1) and plain counts and gauges.
func (t *Threshold) Unit() string {
	kind := t.MetricKind()
	switch {
	case t.IsTime():
		return "ms"
	case kind == Counter && t.Agg == Rate && isBytes(t.Metric):
		return "B/s"
	case kind == Counter && t.Agg == Rate:
		return "/s"
	case kind == Counter && isBytes(t.Metric):
		return "B"
	}
	return ""
}

// AggName returns the aggregation as written, with the percentile: "p(95)", "avg".
func (t *Threshold) AggName() string {
	if t.Agg == Percentile {
		return "p(" + strconv.FormatFloat(t.P, 'f', -1, 64) + ")"
	}
	return t.Agg.String()
}

// String returns the comparison as written: "<", "<=", ">", ">=", "==", "!=".
func (o Op) String() string {
	switch o {
	case Lt:
		return "<"
	case Lte:
		return "<="
	case Gt:
		return ">"
	case Gte:
		return ">="
	case Eq:
		return "=="
	case Ne:
		return "!="
	}
	return "?"
}

// String returns the aggregation's name as written; Percentile is "p(N)",
// see Threshold.AggName for the percentile itself.
func (a AggKind) String() string {
	switch a {
	case Percentile:
		return "p(N)"
	case Avg:
		return "avg"
	case Min:
		return "min"
	case Max:
		return "max"
	case Med:
		return "med"
	case Rate:
		return "rate"
	case Count:
		return "count"
	case Value:
		return "value"
	}
	return "unknown"
}

// Result is one evaluated threshold, as summaries report it.
type Result struct {
	Key      string  // the threshold's key as written
	Expr     string  // the threshold's expression as written
	Observed float64 // the aggregate compared, in the threshold's unit
	HasData  bool    // false when the metric recorded nothing; such a threshold fails
	Pass     bool    // the comparison held, on data the threshold may judge
	Aborted  bool    // this threshold stopped the run (AbortOnFail)
	// Reason says why the threshold failed without its comparison deciding,
	// e.g. "no completed request (60 sent)" or NoData; reports show it in
	// place of the observed value. Empty otherwise.
	Reason string
	// NothingYet marks a failure only for want of anything recorded: it
	// fails the verdict, but never stops a run (abort_on_fail) while more
	// may come.
	NothingYet bool
}
