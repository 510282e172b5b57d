package estimate

import (
	"flag"
	"path/filepath"
	"strings"
	"testing"

	goldenfile "github.com/loadlens/loadlens/internal/golden"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// Golden is an estimate kept for report's tests, with what its rendering
// must show.
type Golden struct {
	Result       Result
	WantInRender []string
}

// golden keeps v as testdata/name.json: the outcome is compared with it,
// and report's tests render it.
func golden(t *testing.T, name string, v any) {
	t.Helper()
	goldenfile.JSON(t, filepath.Join("testdata", name+".json"), v, *update)
}

// slug makes a case's name a file name.
func slug(name string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '.':
			return r
		case r >= 'A' && r <= 'Z':
			return r + 'a' - 'A'
		}
		return '-'
	}, name)
}
