package cli

import (
	"fmt"
	"io"
	"sync"
)

// stdLogLimit is how many lines of Go's standard logger reach the terminal.
const stdLogLimit = 3

// LimitedLog is the writer for Go's standard logger, which net/http writes
// to once per misbehaving response ("Unsolicited response received on idle
// HTTP channel"): against a faulty target that is a line per request, and
// the run already counts each such failure, so a few lines are shown and the
// rest counted.
type LimitedLog struct {
	mu    sync.Mutex
	w     io.Writer
	lines int
}

// NewLimitedLog returns a LimitedLog writing to w.
func NewLimitedLog(w io.Writer) *LimitedLog { return &LimitedLog{w: w} }

// Write passes the first stdLogLimit lines and says once that the rest are left out.
func (l *LimitedLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines++
	switch {
	case l.lines <= stdLogLimit:
		return l.w.Write(p)
	case l.lines == stdLogLimit+1:
		fmt.Fprintln(l.w, "(further messages from Go's HTTP stack are left out; the run counts every failure)")
	}
	return len(p), nil
}
