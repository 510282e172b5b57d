// Package live shows a run while it happens: the terminal progress line
// and the web dashboard. It only shows what it is handed and never blocks
// the engine or the collector.
package live

import (
	"fmt"
	"io"
	"os"
	"time"
	"unicode/utf8"

	"github.com/loadlens/loadlens/internal/units"
)

// Status is the figures of the latest second, as the live line shows them.
type Status struct {
	Elapsed time.Duration // since the run started
	Total   time.Duration // the planned length; 0 when unknown
	RPS     float64       // requests completed in the latest second
	P95     time.Duration // of the latest second
	ErrRate float64       // failed / requests of the latest second
	VUs     int64         // active VUs
	VUsMax  int64         // allocated VUs
	Dropped int64         // dropped iterations so far
	// InFlight is requests sent and not yet answered: against a stalled
	// target it is the only figure that moves.
	InFlight int64
	// Unit is what the run counts (requests, gRPC calls, sessions); zero: requests.
	Unit units.Unit
}

// Line is the one-line progress display. On a terminal it rewrites itself
// in place; otherwise it prints a plain line every PlainEvery, without
// control codes, so CI logs stay readable.
type Line struct {
	w          io.Writer
	tty        bool
	plainEvery time.Duration
	lastPlain  time.Duration
	drawn      bool
}

// NewLine returns a progress line writing to w; tty says w is a terminal.
func NewLine(w io.Writer, tty bool) *Line {
	return &Line{w: w, tty: tty, plainEvery: 5 * time.Second, lastPlain: -time.Hour}
}

// IsTerminal reports whether f is a character device (a terminal).
func IsTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// Update shows s.
func (l *Line) Update(s Status) {
	text := Format(s)
	if l.tty {
		fmt.Fprintf(l.w, "\r\033[K%s", text)
		l.drawn = true
		return
	}
	if s.Elapsed-l.lastPlain >= l.plainEvery {
		fmt.Fprintln(l.w, text)
		l.lastPlain = s.Elapsed
	}
}

// Done ends the line so that what follows starts on a fresh one.
func (l *Line) Done() {
	if l.tty && l.drawn {
		fmt.Fprint(l.w, "\r\033[K")
		l.drawn = false
	}
}

// Format renders a status as one line of text: the seconds of the run as
// the charts count them, and the latest second's figures.
func Format(s Status) string {
	progress := units.Clock(int(s.Elapsed / time.Second))
	if s.Total > 0 {
		progress += "/" + units.Clock(int(s.Total/time.Second))
		if s.Elapsed > s.Total {
			progress += " stopping" // the graceful stop: waiting for requests in flight
		}
	}
	p95 := "-" // no request completed in the second
	if s.P95 > 0 {
		p95 = units.Duration(s.P95)
	}
	head := fmt.Sprintf("[%s] %s · p95 %s · errors %s", progress, s.Unit.Rate(s.RPS), p95, units.Percent(s.ErrRate))
	inFlight := " · in flight " + units.Count(s.InFlight)
	vus := " · VUs " + units.Count(s.VUs)
	dropped := " · dropped " + units.Count(s.Dropped)
	if s.Dropped == 0 {
		dropped = "" // "dropped 0" says nothing: it goes first
	}
	// A line wider than the terminal wraps, and "\r" then redraws only its
	// last row: what says least goes until it fits, the dropped count last.
	for _, line := range []string{
		head + inFlight + vus + "/" + units.Count(s.VUsMax) + " · dropped " + units.Count(s.Dropped),
		head + inFlight + vus + "/" + units.Count(s.VUsMax) + dropped,
		head + inFlight + vus + dropped,
		head + inFlight + dropped,
	} {
		if utf8.RuneCountInString(line) <= units.Columns {
			return line
		}
	}
	return head + dropped
}
