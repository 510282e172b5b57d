package yamldoc

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/loadlens/loadlens/internal/units"
)

// Limits checked before the YAML parser sees a file: its memory grows with
// the square of the nesting (32k levels took 1.6 GB) and by about 2 KiB per
// entry (1 MiB of steps, 91k entries, peaked at 185 MB), and its time with
// the square of one block mapping's keys (49k keys took 32 s, 2k 0.05 s of
// CPU), while real test files are a few KiB, nest about ten levels, have a
// few thousand entries and a few dozen keys in a mapping.
const (
	MaxFileSize = 10 << 20 // bytes of a test file
	MaxDepth    = 64       // nesting of YAML collections
	MaxEntries  = 50000    // keys and list items, block and flow
	MaxKeys     = 2000     // keys of one block mapping
	// LargeMapping and MaxLargeKeys bound the keys of block mappings with more
	// than LargeMapping keys, together: 24 mappings of 2,000 keys took 1.2 s.
	LargeMapping = 200
	MaxLargeKeys = 8000
)

// utf8BOM is the byte order mark some editors put at the start of UTF-8 files.
var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// prescan checks src before it is parsed: its size, its encoding and its
// nesting depth. It returns the text to parse, without a UTF-8 BOM.
func (d *Doc) prescan(src []byte) ([]byte, bool) {
	if len(src) > MaxFileSize {
		d.Errs.errs = append(d.Errs.errs, &Error{File: d.Errs.file, Msg: SizeMessage(int64(len(src)))})
		return nil, false
	}
	if bytes.HasPrefix(src, []byte{0xFF, 0xFE}) || bytes.HasPrefix(src, []byte{0xFE, 0xFF}) {
		d.Errs.Add(Pos{1, 1}, "", "the file is UTF-16 text (it starts with a UTF-16 byte order mark); save it as UTF-8")
		return nil, false
	}
	src = bytes.TrimPrefix(src, utf8BOM)
	if !utf8.Valid(src) {
		at := invalidUTF8(src)
		d.Errs.Add(at, "", "the file is not UTF-8 text (a byte here is not); save it as UTF-8")
		return nil, false
	}
	switch sc := scanStructure(src); {
	case sc.tooDeep:
		d.Errs.Add(sc.at, "", "the YAML nests more than %d levels deep; a test file needs far fewer", MaxDepth)
		return nil, false
	case sc.tooMany:
		d.Errs.Add(sc.at, "", "the file has more than %d YAML entries (keys and list items); a test file needs far fewer (put large data in a CSV file, under data:)", MaxEntries)
		return nil, false
	case sc.tooWide:
		d.Errs.Add(sc.at, "", "%s keys in one mapping, more than %s; a test file needs far fewer (put large data in a CSV file, under data:)",
			units.Count(int64(sc.wideKeys)), units.Count(MaxKeys))
		return nil, false
	case sc.tooLarge:
		d.Errs.Add(sc.at, "", "%s keys in mappings of more than %d keys each, more than %s in all; a test file needs far fewer (put large data in a CSV file, under data:)",
			units.Count(int64(sc.largeKeys)), LargeMapping, units.Count(MaxLargeKeys))
		return nil, false
	}
	return src, true
}

// Prescan checks YAML text named file against the limits, before another
// parser reads it; the error names file, line and column.
func Prescan(file string, src []byte) error {
	d := New(file, nil)
	if _, ok := d.prescan(src); !ok {
		return d.Errs.Result()
	}
	return nil
}

// invalidUTF8 returns where the first byte that is not UTF-8 is.
func invalidUTF8(src []byte) Pos {
	at := Pos{1, 1}
	for len(src) > 0 {
		r, size := utf8.DecodeRune(src)
		switch {
		case r == utf8.RuneError && size <= 1:
			return at
		case r == '\n':
			at = Pos{at.Line + 1, 1}
		default:
			at.Col++
		}
		src = src[size:]
	}
	return at
}

// SizeMessage says that a file of size bytes is too large.
func SizeMessage(size int64) string {
	return fmt.Sprintf("the test file is %.1f MiB; a test file may be at most %d MiB (put large data in a CSV file, under data:)",
		float64(size)/(1<<20), MaxFileSize>>20)
}

// depthScan estimates how deeply YAML text nests and how many entries it
// has, line by line in linear time and constant memory, without building a tree: block collections by
// their indentation and "- " indicators, flow collections by their
// brackets, skipping quoted and block scalars and comments. It is meant to
// stop pathological files, so it may count a level more or less than the
// YAML parser on odd layouts; real test files stay far below MaxDepth.
type depthScan struct {
	stack      [MaxDepth + 1]level // open block nodes, innermost last
	n          int                 // entries in stack
	flow       int                 // open flow collections, implicit pairs included
	flows      [MaxDepth + 1]byte  // the open flow collections, innermost last: '[', '{', or ':' for a pair
	quote      byte                // the quote of a scalar running on from an earlier line, or 0
	scalarOver int                 // a block scalar's content lines are indented more than this; -1 when none
	deepest    int                 // the deepest nesting seen
	entries    int                 // keys and list items seen
	lineNo     int                 // the line being scanned, from 1
	text       []byte              // its text
	widest     int                 // the most keys seen in one block mapping
	wide       Pos                 // where the first mapping with more than MaxKeys keys starts
	wideKeys   int                 // its keys; 0 when there is none
	largeKeys  int                 // the keys of mappings with more than LargeMapping keys
	largeAt    Pos                 // where the mapping that took largeKeys over MaxLargeKeys starts
}

// level is an open block node: the column it starts at, whether it is
// a sequence entry (an indentless sequence sits at its key's column) and
// its kind: '-' an item, '?' an explicit key, ':' its value, 'k' a key.
// A key counts the keys of its mapping up to itself, which starts at start.
type level struct {
	col   int
	seq   bool
	kind  byte
	keys  int
	start Pos
}

// structure is what scanStructure found.
type structure struct {
	depth, entries            int  // the deepest nesting, and the entries counted
	widest, wideKeys          int  // the most keys in one block mapping, and the keys of the first over MaxKeys
	largeKeys                 int  // the keys of mappings with more than LargeMapping keys
	tooDeep, tooMany, tooWide bool // a limit was passed, at at
	tooLarge                  bool // large mappings have more than MaxLargeKeys keys, the first over it at at
	at                        Pos
}

// scanStructure measures src's nesting and entries, stopping where it first
// nests more than MaxDepth levels or has more than MaxEntries entries. It
// scans on past the first mapping with more than MaxKeys keys, to count them all.
func scanStructure(src []byte) structure {
	s := depthScan{scalarOver: -1}
	for line := 1; len(src) > 0; line++ {
		text := src
		if i := bytes.IndexByte(src, '\n'); i >= 0 {
			text, src = src[:i], src[i+1:]
		} else {
			src = nil
		}
		s.lineNo, s.text = line, text
		col, deep := s.line(bytes.TrimSuffix(text, []byte{'\r'}))
		if deep || s.entries > MaxEntries {
			return structure{depth: s.deepest, entries: s.entries, widest: s.widest, tooDeep: deep, tooMany: !deep,
				at: Pos{line, utf8.RuneCount(text[:col]) + 1}}
		}
	}
	sc := structure{depth: s.deepest, entries: s.entries, widest: s.widest, wideKeys: s.wideKeys, largeKeys: s.largeKeys}
	switch {
	case s.wideKeys > 0:
		sc.tooWide, sc.at = true, s.wide
	case s.largeKeys > MaxLargeKeys:
		sc.tooLarge, sc.at = true, s.largeAt
	}
	return sc
}

// line scans one line; it returns the byte offset where the nesting went
// too deep.
func (s *depthScan) line(text []byte) (int, bool) {
	indent := 0
	for indent < len(text) && text[indent] == ' ' {
		indent++
	}
	blank := indent == len(text)
	if s.scalarOver >= 0 {
		if blank || indent > s.scalarOver {
			return 0, false
		}
		s.scalarOver = -1
	}
	i := 0
	if s.quote != 0 {
		if i = s.skipQuoted(text, 0); s.quote != 0 {
			return 0, false
		}
		return s.rest(text, i)
	}
	if s.flow > 0 {
		return s.rest(text, 0)
	}
	if blank || text[indent] == '#' {
		return 0, false
	}
	if indent == 0 && (bytes.HasPrefix(text, []byte("---")) || bytes.HasPrefix(text, []byte("..."))) &&
		(len(text) == 3 || text[3] == ' ' || text[3] == '\t') {
		s.n = 0 // a new document
		return 0, false
	}
	if indent == 0 && text[0] == '%' && s.n == 0 {
		return 0, false // a directive
	}
	i = indent
	first := true
	for i < len(text) {
		// "- " and "? " open a node; several may share a line ("- - x").
		if (text[i] == '-' || text[i] == '?') && (i+1 == len(text) || text[i+1] == ' ') {
			if deep := s.open(i, text[i], first); deep {
				return i, true
			}
			first = false
			i = skipSpaces(text, i+1)
			continue
		}
		break
	}
	i = skipProperties(text, i)
	if i == len(text) || text[i] == '#' {
		return 0, false
	}
	if colon, ok := keyColon(text, i); ok {
		kind := byte('k')
		if colon == i {
			kind = ':' // the value of an explicit key ("? k" then ": v")
		}
		if deep := s.open(i, kind, first); deep {
			return i, true
		}
		i = skipProperties(text, skipSpaces(text, colon+1))
	}
	return s.value(text, i)
}

// open records a block node of kind starting at column col. The first node
// on a line closes the nodes it is not inside of: those at deeper columns,
// and at its own column unless it is a sequence entry under a key there.
func (s *depthScan) open(col int, kind byte, first bool) bool {
	var closed level // the last node closed, a sibling when at col
	if first {
		for s.n > 0 {
			top := s.stack[s.n-1]
			if top.col < col || (top.col == col && kind == '-' && !top.seq) {
				break
			}
			closed = top
			s.n--
		}
	}
	if s.n+s.flow >= MaxDepth {
		return true
	}
	l := level{col: col, seq: kind == '-' || kind == '?', kind: kind}
	if kind != '-' {
		s.countKey(&l, closed)
	}
	s.stack[s.n] = l
	s.n++
	s.entries++
	s.deepest = max(s.deepest, s.n)
	return false
}

// countKey counts key l into its mapping: that of the key closed before it
// at its column, or a new one starting at l.
func (s *depthScan) countKey(l *level, closed level) {
	switch {
	case closed.kind == 0 || closed.kind == '-' || closed.col != l.col:
		l.keys, l.start = 1, Pos{s.lineNo, utf8.RuneCount(s.text[:min(l.col, len(s.text))]) + 1}
	case l.kind == ':':
		l.keys, l.start = closed.keys, closed.start // an explicit key's value, counted with its key
	default:
		l.keys, l.start = closed.keys+1, closed.start
	}
	s.widest = max(s.widest, l.keys)
	if l.keys > MaxKeys && (s.wideKeys == 0 || s.wide == l.start) {
		s.wide, s.wideKeys = l.start, l.keys
	}
	switch {
	case l.keys == LargeMapping+1:
		s.largeKeys += l.keys // the mapping has just become large: all its keys count
	case l.keys > LargeMapping+1:
		s.largeKeys++
	}
	if s.largeKeys > MaxLargeKeys && s.largeAt == (Pos{}) {
		s.largeAt = l.start
	}
}

// value scans a block value starting at i: a block scalar indicator, a
// quoted scalar, a flow collection, or a plain scalar.
func (s *depthScan) value(text []byte, i int) (int, bool) {
	if i >= len(text) {
		return 0, false
	}
	switch text[i] {
	case '|', '>':
		j := i + 1
		for j < len(text) && (text[j] == '+' || text[j] == '-' || ('0' <= text[j] && text[j] <= '9')) {
			j++
		}
		if j == len(text) || text[j] == ' ' || text[j] == '\t' {
			over := 0
			if s.n > 0 {
				over = s.stack[s.n-1].col
			}
			s.scalarOver = over
		}
		return 0, false
	case '"', '\'':
		s.quote = text[i]
		if i = s.skipQuoted(text, i+1); s.quote != 0 {
			return 0, false
		}
		return s.rest(text, i)
	case '[', '{':
		return s.rest(text, i)
	}
	return 0, false // a plain scalar
}

// rest scans text from i inside or after flow collections: brackets,
// quoted scalars and comments. A "key: value" item of a flow sequence is a
// mapping of one pair ([get: /x] is a list of a mapping), a level of its
// own until the item ends.
func (s *depthScan) rest(text []byte, i int) (int, bool) {
	prev := byte('[') // a quote opens a scalar only where a scalar may start
	for ; i < len(text); i++ {
		c := text[i]
		if s.flow == 0 && c != '[' && c != '{' {
			return 0, false // what follows a flow collection on its line is a comment (or an error the parser reports)
		}
		switch c {
		case '[', '{':
			if s.push(c) {
				return i, true
			}
			s.entries++
		case ']', '}':
			s.closePair()
			if s.flow > 0 {
				s.flow--
			}
		case ',':
			s.closePair()
			s.entries++
		case ':':
			if s.flow > 0 && s.flows[s.flow-1] == '[' && pairColon(text, i, prev) && s.push(':') {
				return i, true
			}
		case '"', '\'':
			if !bytes.ContainsRune([]byte("[{,:?-"), rune(prev)) {
				break // an apostrophe inside a plain scalar
			}
			s.quote = c
			if i = s.skipQuoted(text, i+1); s.quote != 0 {
				return 0, false
			}
			i--
		case '#':
			if i > 0 && (text[i-1] == ' ' || text[i-1] == '\t') {
				return 0, false
			}
		}
		if c != ' ' && c != '\t' {
			prev = c
		}
	}
	return 0, false
}

// push opens a flow level of kind c; it reports whether that nests too deep.
func (s *depthScan) push(c byte) bool {
	if s.n+s.flow >= MaxDepth {
		return true
	}
	s.flows[s.flow] = c
	s.flow++
	s.deepest = max(s.deepest, s.n+s.flow)
	return false
}

// closePair ends the implicit pair of a flow sequence's item, if one is open.
func (s *depthScan) closePair() {
	if s.flow > 0 && s.flows[s.flow-1] == ':' {
		s.flow--
	}
}

// pairColon reports whether the ':' at i in a flow collection separates a
// key from its value: followed by a blank, an end of the item or the line,
// or right after a quoted key ("a":1); not inside a plain scalar (http://x).
func pairColon(text []byte, i int, prev byte) bool {
	if prev == '"' || prev == '\'' {
		return true
	}
	return i+1 == len(text) || bytes.IndexByte([]byte(" \t,]}"), text[i+1]) >= 0
}

// skipQuoted skips to the end of the scalar quoted by s.quote, from i; it
// returns the offset after the closing quote, with s.quote cleared, or
// len(text) with s.quote kept when the scalar goes on to the next line.
func (s *depthScan) skipQuoted(text []byte, i int) int {
	for ; i < len(text); i++ {
		switch {
		case s.quote == '"' && text[i] == '\\':
			i++
		case s.quote == '\'' && text[i] == '\'' && i+1 < len(text) && text[i+1] == '\'':
			i++
		case text[i] == s.quote:
			s.quote = 0
			return i + 1
		}
	}
	return len(text)
}

// keyColon finds the ':' that ends a mapping key starting at i, if the line
// has one: a ':' followed by a space or the line's end, outside quotes,
// before a comment and before a flow collection's start.
func keyColon(text []byte, i int) (int, bool) {
	if i < len(text) && (text[i] == '"' || text[i] == '\'') {
		s := depthScan{quote: text[i]}
		j := s.skipQuoted(text, i+1)
		if s.quote != 0 {
			return 0, false
		}
		j = skipSpaces(text, j)
		return j, j < len(text) && text[j] == ':' && (j+1 == len(text) || text[j+1] == ' ' || text[j+1] == '\t')
	}
	if i < len(text) && (text[i] == '[' || text[i] == '{') {
		return 0, false
	}
	for j := i; j < len(text); j++ {
		switch text[j] {
		case ':':
			if j+1 == len(text) || text[j+1] == ' ' || text[j+1] == '\t' {
				return j, true
			}
		case '#':
			if j > i && (text[j-1] == ' ' || text[j-1] == '\t') {
				return 0, false
			}
		}
	}
	return 0, false
}

// skipSpaces returns the offset of the first non-blank byte from i.
func skipSpaces(text []byte, i int) int {
	for i < len(text) && (text[i] == ' ' || text[i] == '\t') {
		i++
	}
	return i
}

// skipProperties skips anchors (&a) and tags (!!str) before a node.
func skipProperties(text []byte, i int) int {
	for i < len(text) && (text[i] == '&' || text[i] == '!') {
		for i < len(text) && text[i] != ' ' && text[i] != '\t' {
			i++
		}
		i = skipSpaces(text, i)
	}
	return i
}

// QuotedEnd returns the span of the quoted scalar whose quote is at start.
func QuotedEnd(text string, start int) (int, int, bool) {
	s := depthScan{quote: text[start]}
	end := start + 1
	for end < len(text) && s.quote != 0 {
		line := strings.IndexByte(text[end:], '\n')
		if line < 0 {
			line = len(text) - end
		}
		if next := s.skipQuoted([]byte(text[end:end+line]), 0); s.quote == 0 {
			return start, end + next, true
		}
		end += line + 1
	}
	return 0, 0, false
}
