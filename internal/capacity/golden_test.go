package capacity

import (
	"flag"
	"path/filepath"
	"testing"

	goldenfile "github.com/loadlens/loadlens/internal/golden"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// verdictCase is a search's last run and what its verdict must say.
type verdictCase struct {
	Last Record
	Want string
}

// golden keeps v as testdata/name.json: the outcome is compared with it,
// and report's tests render it.
func golden(t *testing.T, name string, v any) {
	t.Helper()
	goldenfile.JSON(t, filepath.Join("testdata", name+".json"), v, *update)
}
