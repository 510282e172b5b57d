package k8s

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/loadlens/loadlens/internal/plan"
)

// TestFiles returns the test file and the data files it names, read from
// disk as the test names them (relative to the test file).
func TestFiles(p *plan.Plan) (test File, data []File, err error) {
	test = File{Name: filepath.Base(p.File), Data: p.Source}
	seen := map[string]bool{}
	for _, sc := range p.Scenarios {
		if sc.Data == nil || seen[sc.Data.File] {
			continue
		}
		seen[sc.Data.File] = true
		b, err := os.ReadFile(filepath.Join(filepath.Dir(p.File), sc.Data.File))
		if err != nil {
			return test, nil, fmt.Errorf("%s: scenario %s: data: %w", p.File, sc.Name, err)
		}
		data = append(data, File{Name: filepath.ToSlash(sc.Data.File), Data: b})
	}
	return test, data, nil
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
