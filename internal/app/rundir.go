package app

import (
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// DefaultResults is where run directories go unless --results says otherwise.
const DefaultResults = "results"

// makeRunDir creates results/<time>-<name>, adding a suffix when two runs
// start in the same second.
func makeRunDir(parent, name string, at time.Time) (string, error) {
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return "", fmt.Errorf("results directory: %w", err)
	}
	base := filepath.Join(parent, at.Format("20060102-150405")+"-"+name)
	dir := base
	for i := 2; i < 1000; i++ {
		err := os.Mkdir(dir, 0o755)
		if err == nil {
			return dir, nil
		}
		if !os.IsExist(err) {
			return "", fmt.Errorf("run directory: %w", err)
		}
		dir = fmt.Sprintf("%s-%d", base, i)
	}
	return "", fmt.Errorf("run directory: too many runs named %s in one second", base)
}
