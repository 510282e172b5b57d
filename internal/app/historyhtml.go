package app

import (
	"errors"

	"github.com/loadlens/loadlens/internal/history"
)

// writeHistoryHTML writes history.html.
func writeHistoryHTML(cfg HistoryConfig, tests []*history.Test, m history.Method) error {
	return errors.New("--html: not written yet")
}
