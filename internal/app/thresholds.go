package app

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/threshold"
)

// evaluate judges every threshold against the run so far with the one
// judgement the verdict, abort_on_fail and the dashboard share
// (metrics.Run.Evaluate); aborted marks the ones that stopped the run early.
func evaluate(run *metrics.Run, defs []threshold.Threshold, aborted map[int]bool) []threshold.Result {
	out := make([]threshold.Result, len(defs))
	for i := range defs {
		out[i] = run.Evaluate(&defs[i])
		out[i].Aborted = aborted[i]
	}
	return out
}

// storedThreshold is how thresholds are kept in run.db's metadata, so a
// run's summary can be rebuilt without its test file, env or CSV files.
type storedThreshold struct {
	Key            string        `json:"key"`
	Expr           string        `json:"expr"`
	AbortOnFail    bool          `json:"abort_on_fail,omitempty"`
	DelayAbortEval time.Duration `json:"delay_abort_eval,omitempty"`
}

// EncodeThresholds keeps a run's thresholds in its meta, for DecodeThresholds.
func EncodeThresholds(defs []threshold.Threshold) string {
	st := make([]storedThreshold, len(defs))
	for i, t := range defs {
		st[i] = storedThreshold{t.Key, t.Expr, t.AbortOnFail, t.DelayAbortEval}
	}
	b, _ := json.Marshal(st) // plain structs cannot fail to marshal
	return string(b)
}

// DecodeThresholds reads back the thresholds a run kept in its meta; the
// run's layout names the test's own metrics they may judge.
func DecodeThresholds(s string, layout sample.Layout) ([]threshold.Threshold, error) {
	custom := threshold.CustomsOf(layout)
	if s == "" {
		return nil, nil
	}
	var st []storedThreshold
	if err := json.Unmarshal([]byte(s), &st); err != nil {
		return nil, fmt.Errorf("thresholds in run.db: %w", err)
	}
	defs := make([]threshold.Threshold, len(st))
	for i, x := range st {
		t, err := threshold.NewIn(x.Key, x.Expr, custom)
		if err != nil {
			return nil, fmt.Errorf("threshold %s %q in run.db: %w", x.Key, x.Expr, err)
		}
		t.AbortOnFail, t.DelayAbortEval = x.AbortOnFail, x.DelayAbortEval
		defs[i] = t
	}
	return defs, nil
}
