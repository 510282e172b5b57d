package report

import (
	"strings"
	"testing"

	"github.com/loadlens/loadlens/internal/units"
)

// TestPoolWaitTimeIsNotChartedAsACount keeps database/sql's wait time,
// added as each wait ends, off the count axis of the pool's waits: its
// rate is seconds waited per second, not a number of waiters.
func TestPoolWaitTimeIsNotChartedAsACount(t *testing.T) {
	for _, f := range chartFamilies(units.Requests) {
		for _, m := range f.members {
			if m.name != "go_sql_wait_duration_seconds_total" {
				continue
			}
			if len(f.members) != 1 {
				t.Errorf("chart %q puts the wait time beside %d other series", f.chart, len(f.members)-1)
			}
			if !strings.Contains(f.title, "seconds waited per second") || strings.Contains(m.label, "waiting") {
				t.Errorf("chart %q (%q) labels the wait time %q", f.chart, f.title, m.label)
			}
			return
		}
	}
	t.Error("no chart for go_sql_wait_duration_seconds_total")
}
