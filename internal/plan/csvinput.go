package plan

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"
)

// csvInput sits between a data file and encoding/csv: it checks that the
// bytes are UTF-8 without NUL, and, once a row limit is set, stops reading
// a row at it, so a 200 MiB row is refused after about 1 MiB is read (it
// once took 1.3 GB: encoding/csv holds the whole row before returning it).
type csvInput struct {
	r         io.Reader
	off       int64 // bytes read so far
	line      int   // line of the byte at off, from 1
	lineStart int64 // offset of that line's first byte
	carry     []byte
	rowStart  int64 // offset of the row being read, for the limit
	limit     int64 // bytes one row may take, plus the read-ahead; 0: none
	err       error
}

func newCSVInput(r io.Reader, start int64) *csvInput {
	return &csvInput{r: r, off: start, line: 1, lineStart: start}
}

// rowTooLong is the limit's error; ScanCSV words it.
type rowTooLong struct{ line int }

func (e rowTooLong) Error() string { return fmt.Sprintf("the row on line %d is too long", e.line) }

// Read reads from the file and checks what it read.
func (c *csvInput) Read(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	if c.limit > 0 {
		room := c.rowStart + c.limit - c.off
		if room <= 0 {
			c.err = rowTooLong{c.line}
			return 0, c.err
		}
		p = p[:min(int64(len(p)), room)]
	}
	n, err := c.r.Read(p)
	if cerr := c.check(p[:n]); cerr != nil {
		c.err = cerr
		return 0, cerr
	}
	if errors.Is(err, io.EOF) && len(c.carry) > 0 {
		c.err = c.badByte(c.carry, 0, c.off-int64(len(c.carry)))
		return 0, c.err
	}
	return n, err
}

// check validates b, read at c.off, carrying an incomplete last character
// to the next read, and counts its lines.
func (c *csvInput) check(b []byte) error {
	base := c.off
	c.off += int64(len(b))
	i := 0
	for len(c.carry) > 0 && i < len(b) { // finish the character split by the previous read
		c.carry = append(c.carry, b[i])
		i++
		if utf8.FullRune(c.carry) {
			at := base + int64(i-len(c.carry))
			if r, _ := utf8.DecodeRune(c.carry); r == utf8.RuneError {
				return c.badByte(c.carry, 0, at)
			}
			c.carry = c.carry[:0]
		}
	}
	body := b[i:]
	end := len(body)
	for k := end - 1; k >= 0 && k >= end-3; k-- { // an incomplete last character waits for the next read
		if body[k]&0xc0 != 0x80 {
			if body[k] >= 0xc0 && !utf8.FullRune(body[k:]) {
				end = k
			}
			break
		}
	}
	if !utf8.Valid(body[:end]) || bytes.IndexByte(body[:end], 0) >= 0 {
		return c.findBad(body, base+int64(i))
	}
	c.countLines(body, base+int64(i))
	c.carry = append(c.carry, body[end:]...)
	return nil
}

// countLines moves the line count past b, read at offset at.
func (c *csvInput) countLines(b []byte, at int64) {
	if n := bytes.Count(b, []byte{'\n'}); n > 0 {
		c.line += n
		c.lineStart = at + int64(bytes.LastIndexByte(b, '\n')) + 1
	}
}

// findBad locates the first NUL or invalid byte of b, read at offset at.
func (c *csvInput) findBad(b []byte, at int64) error {
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == 0 || r == utf8.RuneError && size == 1 {
			c.countLines(b[:i], at)
			return c.badByte(b, i, at+int64(i))
		}
		i += size
	}
	return nil // not reached: check saw a bad byte
}

// badByte describes the byte b[i], at offset off of the file, and what
// encoding the file seems to be in.
func (c *csvInput) badByte(b []byte, i int, off int64) error {
	col := off - c.lineStart + 1
	if b[i] == 0 {
		guess := "a CSV file has no NUL bytes"
		if i+2 < len(b) && b[i+2] == 0 || i >= 2 && b[i-2] == 0 { // every other byte NUL: ASCII in UTF-16
			guess = "the file looks like UTF-16; save it as UTF-8 (iconv -f UTF-16 -t UTF-8), or set encoding: utf-16 on the data source"
		}
		return fmt.Errorf("line %d, column %d: a NUL byte; %s", c.line, col, guess)
	}
	next := byte(0)
	if i+1 < len(b) {
		next = b[i+1]
	}
	guess := "Latin-1 (ISO-8859-1, Windows-1252): set encoding: latin1 on the data source, or save it as UTF-8"
	if next >= 0x40 && next != 0x7f {
		guess = "a double-byte encoding such as CP949/EUC-KR (Korean) or Shift-JIS (Japanese): set encoding: cp949 or shift_jis on the data source, or save it as UTF-8"
	}
	return fmt.Errorf("line %d, column %d: byte 0x%02x is not UTF-8; the file looks like %s", c.line, col, b[i], guess)
}

// startRow sets where the next row starts, at offset off, and limits it to
// max bytes; what csv.Reader reads ahead (ahead bytes at most) is allowed
// on top.
func (c *csvInput) startRow(off, max, ahead int64) {
	c.rowStart, c.limit = off, max+ahead
}
