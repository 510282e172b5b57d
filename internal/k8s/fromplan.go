package k8s

import (
	"maps"
	"path/filepath"
	"slices"
	"time"

	"github.com/loadlens/loadlens/internal/plan"
)

// TestFiles is the test file and the files it names (files: by their
// paths relative to the test, as dist.Files gathers them), in path order,
// for the run's ConfigMap.
func TestFiles(p *plan.Plan, files map[string][]byte) (test File, data []File) {
	test = File{Name: filepath.Base(p.File), Data: p.Source}
	for _, name := range slices.Sorted(maps.Keys(files)) {
		data = append(data, File{Name: filepath.ToSlash(name), Data: files[name]})
	}
	return test, data
}

// Length returns how long the test runs at most: the latest scenario's
// start, load and graceful stop.
func Length(p *plan.Plan) time.Duration {
	var longest time.Duration
	for _, sc := range p.Scenarios {
		longest = max(longest, sc.StartTime+sc.Load.Duration()+sc.GracefulStop)
	}
	return longest
}
