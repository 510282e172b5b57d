package report

import (
	"github.com/loadlens/loadlens/internal/diagnose"
	"github.com/loadlens/loadlens/internal/units"
)

// droppedWarning says that iterations were dropped for lack of a free VU
// and what would offer the planned load, from what held the VU pool
// (loadlens_vu_pool_held's reason): never "raise max_vus" after the
// engine's note that more VUs would only wait for the same CPU; "" when
// none was dropped.
func droppedWarning(in *Input) string {
	d := in.Dropped()
	if d == 0 {
		return ""
	}
	held := map[string]bool{}
	for _, s := range in.Series.Find(diagnose.GeneratorPoolHeld) {
		held[s.Label("reason")] = true
	}
	advice := "Raise max_vus, or treat the rate as beyond what this setup can test."
	switch {
	case held["generator_cpu"] || held["generator_behind"]:
		advice = "Give loadlens more CPU (stop what competes with it, or run it on a machine of its own), or lower the rate: more VUs would only wait for the same CPU."
	case held["open_files"] && !held["max_vus"]:
		advice = "Raise the open-file limit (ulimit -n), or treat the rate as beyond what this setup can test."
	case (held["latency"] || held["growth"]) && !held["max_vus"]:
		advice = "The pool grows as far as the target's latency explains, so more VUs would not have been used: treat the rate as beyond what this setup can test."
	}
	return units.CountOf(d, "iteration was", "iterations were") + " dropped for lack of a free VU: the target was not offered the planned load, so " +
		"these percentiles are optimistic. " + advice
}
