package yamldoc

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// MaxErrors caps how many errors a Doc reports, so one systematic mistake
// does not bury the others under hundreds of lines.
const MaxErrors = 20

// Error is one problem in a test file: where it is, which field it concerns
// and what is wrong.
type Error struct {
	File   string // the file's path as given to New; empty in URL mode (plan)
	Line   int    // 1-based line; 0 when the error is not in the file (URL mode flags)
	Column int    // 1-based column, in characters
	Field  string // the field's path, e.g. scenarios.browse.flow[2].think; empty for the whole file
	Msg    string // what is wrong, and where useful how to fix it
}

// Error formats the error as "file:line:col: field: message"; parts that
// are unknown (no file, no position, no field) are left out.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		if e.File != "" {
			b.WriteByte(':')
		}
		fmt.Fprintf(&b, "%d:%d", e.Line, e.Column)
	}
	if b.Len() > 0 {
		b.WriteString(": ")
	}
	if e.Field != "" {
		b.WriteString(e.Field)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Errors is every problem found in a file, sorted by position.
type Errors []*Error

// Error returns the errors one per line.
func (es Errors) Error() string {
	lines := make([]string, len(es))
	for i, e := range es {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// Pos is a 1-based line and column in the test file.
type Pos struct{ Line, Col int }

// ErrorList collects errors while parsing, dropping exact repeats (a default
// header compiled for every scenario would otherwise report once per scenario).
type ErrorList struct {
	file  string
	errs  Errors
	seen  map[Error]bool
	quiet int    // > 0 while pre-scanning: errors are dropped, the real pass reports them
	only  *Error // an error the others follow from (the alias budget spent): reported alone

	// A missing key is often a typo'd one: an error that follows from a
	// missing key is dropped when its mapping also has an unknown key, so the
	// typo is the first and only error the user reads.
	unknownIn map[string]bool   // mapping paths holding an unknown key
	missingIn map[*Error]string // errors that follow from a missing key, by mapping path
}

// Add records an error at at about field.
func (l *ErrorList) Add(at Pos, field, format string, args ...any) {
	l.record(at, field, format, args...)
}

// Missing records an error that follows from a key missing from the mapping
// at path parent; it is dropped if that mapping has an unknown key.
func (l *ErrorList) Missing(at Pos, parent, field, format string, args ...any) {
	if e := l.record(at, field, format, args...); e != nil {
		if l.missingIn == nil {
			l.missingIn = map[*Error]string{}
		}
		l.missingIn[e] = parent
	}
}

// unknown records an unknown key in the mapping at path parent.
func (l *ErrorList) unknown(at Pos, parent, field, format string, args ...any) {
	if e := l.record(at, field, format, args...); e != nil {
		if l.unknownIn == nil {
			l.unknownIn = map[string]bool{}
		}
		l.unknownIn[parent] = true
	}
}

// record adds an error unless pre-scanning or a repeat, and returns it.
func (l *ErrorList) record(at Pos, field, format string, args ...any) *Error {
	if l.quiet > 0 {
		return nil
	}
	e := Error{File: l.file, Line: max(at.Line, 1), Column: max(at.Col, 1), Field: field, Msg: fmt.Sprintf(format, args...)}
	if l.seen == nil {
		l.seen = map[Error]bool{}
	}
	if l.seen[e] {
		return nil
	}
	l.seen[e] = true
	l.errs = append(l.errs, &e)
	return &e
}

// Failed reports whether any error was recorded.
func (l *ErrorList) Failed() bool { return len(l.errs) > 0 }

// Result returns the errors sorted by position and capped at maxErrors, or
// nil when there are none.
func (l *ErrorList) Result() error {
	if l.only != nil {
		return Errors{l.only}
	}
	es := slices.DeleteFunc(slices.Clone(l.errs), func(e *Error) bool {
		parent, ok := l.missingIn[e]
		return ok && l.unknownIn[parent]
	})
	if len(es) == 0 {
		return nil
	}
	slices.SortStableFunc(es, func(a, b *Error) int {
		return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Column, b.Column))
	})
	if len(es) > MaxErrors {
		next := es[MaxErrors]
		more := &Error{File: l.file, Line: next.Line, Column: next.Column,
			Msg: fmt.Sprintf("too many errors: %d more not shown", len(es)-MaxErrors)}
		es = append(es[:MaxErrors:MaxErrors], more)
	}
	return es
}

// Len returns how many errors were recorded so far, so that a reader can
// tell whether one value of several added any.
func (l *ErrorList) Len() int { return len(l.errs) }

// File returns the file the errors are in.
func (l *ErrorList) File() string { return l.file }
