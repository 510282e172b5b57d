package dist

import (
	"fmt"
	"strings"

	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/units"
)

// What one local agent takes of the machine, by which --local-agents is capped.
const (
	// localPerCore: agents share the cores they run on; past a few a core
	// they wait on each other for a CPU, which their latencies then measure.
	localPerCore = 8
	// localMemory: an idle agent holds 34 MB, one sending 500 requests/s
	// 42 MB (measured, 2 cores); the rest is room for its connections.
	localMemory = 64 << 20
	// localFiles: the coordinator holds each agent's output pipe and
	// connection, and its input pipe while it starts.
	localFiles = 3
	// localFilesKept: the coordinator's own files (run.db, the dashboard,
	// the outputs, scrapes) come first.
	localFilesKept = 256
)

// MaxLocalAgents is how many local agents machine m can run, the least of
// what its cores, its available memory and its open-file limit allow, and
// the reckoning, e.g. "2 cores allow 16 (8 a core); …". A figure m does not
// know (0) limits nothing; when none is known, cores count as one.
func MaxLocalAgents(m plan.Machine) (int, string) {
	most := max(m.CPUs, 1) * localPerCore
	why := []string{fmt.Sprintf("%s allow %s (%d a core)", units.CountOf(int64(max(m.CPUs, 1)), "core", "cores"), units.Count(int64(most)), localPerCore)}
	if m.MemAvailable > 0 {
		n := int(m.MemAvailable / localMemory)
		most = min(most, n)
		why = append(why, fmt.Sprintf("%s of available memory allow %s (%s an agent)", units.Bytes(m.MemAvailable), units.Count(int64(n)), units.Size(localMemory)))
	}
	if m.OpenFiles > 0 {
		n := max(m.OpenFiles-localFilesKept, 0) / localFiles
		most = min(most, n)
		why = append(why, fmt.Sprintf("a limit of %s open files allows %s (%d an agent, %d kept for the run)", units.Count(int64(m.OpenFiles)), units.Count(int64(n)), localFiles, localFilesKept))
	}
	return most, strings.Join(why, "; ")
}
