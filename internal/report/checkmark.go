package report

import (
	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/units"
)

// neverRan is a check's pass rate when it was never evaluated (its step
// never ran, or never got far enough): not a pass, so it gets no ✓.
const neverRan = "never ran"

// checkMark returns a check's mark and its HTML class: ✓ passed every
// time, ✗ failed at least once, – never evaluated.
func checkMark(c metrics.CheckTotal) (mark, class string) {
	switch {
	case c.Fails > 0:
		return "✗", "bad"
	case c.Passes == 0:
		return "–", "nodata"
	}
	return "✓", "ok"
}

// checkRate is a check's pass rate, or neverRan.
func checkRate(c metrics.CheckTotal) string {
	if c.Passes+c.Fails == 0 {
		return neverRan
	}
	return units.Percent(ratio(c.Passes, c.Passes+c.Fails))
}
