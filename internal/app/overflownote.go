package app

import (
	"fmt"
	"strings"

	"github.com/loadlens/loadlens/internal/scrape"
	"github.com/loadlens/loadlens/internal/units"
)

// overflowNote says in one line what a target exposed beyond the scrape
// bounds, and that the run went on with the rest.
func overflowNote(o scrape.Overflow) string {
	var parts []string
	if o.Read < o.Exposed {
		parts = append(parts, fmt.Sprintf("it exposes %s samples and only the first %s of a scrape are read",
			units.Count(int64(o.Exposed)), units.Count(int64(o.Read))))
	}
	if o.TargetFull > 0 {
		parts = append(parts, fmt.Sprintf("%s more series beyond the %s loadlens keeps of one target were dropped",
			units.Count(int64(o.TargetFull)), units.Count(int64(o.PerTarget))))
	}
	if o.RunFull > 0 {
		parts = append(parts, fmt.Sprintf("%s more series beyond the %s loadlens keeps of all targets were dropped",
			units.Count(int64(o.RunFull)), units.Count(int64(o.PerRun))))
	}
	if o.Oversized > 0 {
		parts = append(parts, fmt.Sprintf("%s series with a name over %d bytes, over %d labels or a label value over %s bytes were dropped",
			units.Count(int64(o.Oversized)), scrape.MaxNameLen, scrape.MaxLabels, units.Count(scrape.MaxLabelValueLen)))
	}
	return fmt.Sprintf("observe target %s: %s; the run goes on with the rest (select fewer series: a preset or series:, or at the exporter)",
		o.Target, strings.Join(parts, "; "))
}
