package app

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/loadlens/loadlens/internal/store"
)

// OpenRun opens a run's run.db for reading; a path with no run there is
// the user's mistake (a typo, a run not made yet), so it exits
// ExitBadInput and says where the runs are.
func OpenRun(db string) (*store.Reader, error) {
	if _, err := os.Stat(db); errors.Is(err, fs.ErrNotExist) {
		return nil, badInput{fmt.Errorf("no run at %s (`loadlens runs` lists the runs under ./results)", db)}
	}
	return store.Open(db)
}
