package diagnose

import (
	"slices"
	"strings"

	"github.com/loadlens/loadlens/internal/spans"
)

// cpuNoDBRemedies replace KindCPUSaturation's remedies in a run where
// nothing points at a DB: a heavy join, a materialized view and read
// replicas are no advice for a service without one (trial A3's c2-gc-open,
// a Go service alone on its core).
var cpuNoDBRemedies = []string{
	"profile the busiest code under load and make it cheaper (a CPU profile: go tool pprof, async-profiler, perf)",
	"cache or precompute results (an in-memory map) instead of computing them per {request}",
	"give it more CPU: raise the container limit or use a larger instance (watch burstable instances' credits)",
	"scale out (more replicas) and check that the autoscaler reacts before saturation",
}

// cpuRemedies returns the CPU finding's remedies: the default's, which
// cite SQL, where the run points at a DB, else cpuNoDBRemedies.
func (c *context) cpuRemedies() []string {
	if c.dbInRun() {
		return remediesFor(KindCPUSaturation)
	}
	return slices.Clone(cpuNoDBRemedies)
}

// dbInRun reports whether anything in the run points at a SQL database: a
// DB pool's series (serverFamilies), a DB exporter's (pg_, mysql_), a
// target labelled role=db, or DB statements in the traces.
func (c *context) dbInRun() bool {
	for _, g := range serverFamilies {
		if g.what == "DB pool" && len(familyHits(c.set, g.names, g.suffix)) > 0 {
			return true
		}
	}
	for _, s := range c.set {
		if s.Label("role") == "db" || strings.HasPrefix(s.Name, "pg_") || strings.HasPrefix(s.Name, "mysql_") {
			return true
		}
	}
	for _, b := range c.traces {
		for _, st := range b.Statements {
			if st.Kind == spans.PartDB {
				return true
			}
		}
	}
	return false
}
