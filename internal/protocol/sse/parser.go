package sse

import (
	"bytes"
	"errors"
	"strconv"

	"github.com/loadlens/loadlens/internal/units"
)

// errTooLong is a line or an event's data longer than the step's
// max_event_size: the stream fails rather than grow the VU's memory.
var errTooLong = errors.New("longer than max_event_size")

// parser reads an event stream as the WHATWG HTML standard's
// "interpreting an event stream" does, from chunks of any size: lines end
// in CRLF, LF or CR; a blank line dispatches the event; data lines join
// with LF; a leading BOM is skipped. Memory is bounded by max: the line
// being read and the event's data each hold at most max bytes.
type parser struct {
	max     int
	line    []byte
	data    []byte
	hasData bool
	lastID  string // the last event id seen, sent back as Last-Event-ID
	retry   int    // the reconnection time the stream asked for, in ms; -1: none
	cr      bool   // the last byte was CR: an LF right after it ends no line
	started bool   // past the stream's first bytes (where a BOM may be)
	bomAt   int    // how many of the BOM's bytes were skipped
}

// bom is UTF-8's byte order mark, which a stream may start with.
const bom = "\xef\xbb\xbf"

func newParser(max int) *parser { return &parser{max: max, retry: -1} }

// reset prepares for a new connection, keeping the last event id.
func (p *parser) reset() {
	p.line, p.data, p.hasData, p.cr, p.started, p.bomAt = p.line[:0], p.data[:0], false, false, false, 0
}

// feed parses chunk, calling emit with each dispatched event's data (valid
// during the call only).
func (p *parser) feed(chunk []byte, emit func(data []byte)) error {
	for !p.started && len(chunk) > 0 { // the BOM may come split over reads
		if chunk[0] != bom[p.bomAt] {
			p.started = true
			break
		}
		chunk, p.bomAt = chunk[1:], p.bomAt+1
		p.started = p.bomAt == len(bom)
	}
	for len(chunk) > 0 {
		if p.cr && chunk[0] == '\n' {
			chunk = chunk[1:]
			p.cr = false
			continue
		}
		p.cr = false
		i := bytes.IndexAny(chunk, "\r\n")
		if i < 0 {
			return p.grow(chunk)
		}
		if err := p.grow(chunk[:i]); err != nil {
			return err
		}
		p.cr = chunk[i] == '\r'
		chunk = chunk[i+1:]
		if err := p.endLine(emit); err != nil {
			return err
		}
	}
	return nil
}

// grow adds b to the current line, within max.
func (p *parser) grow(b []byte) error {
	if len(p.line)+len(b) > p.max {
		return errors.New("an event stream line " + errTooLong.Error() + " (" + units.Size(int64(p.max)) + ")")
	}
	p.line = append(p.line, b...)
	return nil
}

// endLine processes the line read, dispatching on a blank one.
func (p *parser) endLine(emit func([]byte)) error {
	line := p.line
	p.line = p.line[:0]
	if len(line) == 0 {
		if p.hasData {
			emit(bytes.TrimSuffix(p.data, []byte("\n")))
		}
		p.data, p.hasData = p.data[:0], false
		return nil
	}
	if line[0] == ':' {
		return nil // a comment, e.g. a keep-alive
	}
	name, value, found := bytes.Cut(line, []byte(":"))
	if found {
		value = bytes.TrimPrefix(value, []byte(" "))
	}
	switch string(name) {
	case "data":
		if len(p.data)+len(value)+1 > p.max {
			return errors.New("an event's data " + errTooLong.Error() + " (" + units.Size(int64(p.max)) + ")")
		}
		p.data = append(append(p.data, value...), '\n')
		p.hasData = true
	case "id":
		if bytes.IndexByte(value, 0) < 0 {
			p.lastID = string(value)
		}
	case "retry":
		if n, err := strconv.Atoi(string(value)); err == nil && n >= 0 && isDigits(value) {
			p.retry = n
		}
	}
	return nil // "event" names a type no check reads yet; other fields are ignored, as the standard says
}

func isDigits(b []byte) bool {
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return len(b) > 0
}
