package app

import (
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"
)

// DefaultResults is where run directories go unless --results says otherwise.
const DefaultResults = "results"

// maxRunDirName bounds a run directory's name in bytes, its "-999" suffix
// included: far below a file system's 255, and short enough that the
// summary's "results/<dir>/report.html" fits a line of units.Columns.
const maxRunDirName = 78

// MakeRunDir creates results/<time>-<name>, adding a suffix when two runs
// start in the same second; a long name is shortened (boundName).
func MakeRunDir(parent, name string, at time.Time) (string, error) {
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return "", fmt.Errorf("results directory: %w", err)
	}
	stamp := at.Format("20060102-150405") + "-"
	base := filepath.Join(parent, stamp+boundName(name, maxRunDirName-len(stamp)-len("-999")))
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

// boundName returns name if it has at most limit bytes, else its start cut
// at a character and a hash of the whole name, so that two long names
// sharing a start still name different directories.
func boundName(name string, limit int) string {
	if len(name) <= limit {
		return name
	}
	h := fnv.New32a()
	h.Write([]byte(name))
	tag := fmt.Sprintf("-%08x", h.Sum32())
	head := name[:limit-len(tag)]
	for !utf8.ValidString(head) { // a character cut in two
		head = head[:len(head)-1]
	}
	return strings.TrimRight(head, "-.") + tag
}
