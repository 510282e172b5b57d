package yamldoc

import (
	"fmt"

	"github.com/goccy/go-yaml/token"
)

// frame is one level of block structure open at a point of the text: a
// mapping key or a sequence item, with the column it starts at.
type frame struct {
	col  int
	key  string
	item int // the item's index when key is ""
	line int
}

// openKeys is the block structure open just before a syntax error: what a
// YAML parser that stopped there had reached.
type openKeys struct {
	frames []frame
	valued bool // the innermost key has a value before the error
}

// pathBefore rebuilds the open keys and items from the tokens before tok.
// Flow collections ({...}, [...]) are not entered: an error inside one is
// placed at the key that holds it.
func pathBefore(tok *token.Token) openKeys {
	var toks []*token.Token
	for t := tok; t != nil && t.Prev != nil && len(toks) < maxNodes; t = t.Prev {
		toks = append(toks, t.Prev)
	}
	var c openKeys
	flow := 0
	for i := len(toks) - 1; i >= 0; i-- {
		t := toks[i]
		if t.Position == nil || t.Type == token.CommentType {
			continue
		}
		switch t.Type {
		case token.MappingStartType, token.SequenceStartType:
			flow++
		case token.MappingEndType, token.SequenceEndType:
			flow = max(flow-1, 0)
		case token.DocumentHeaderType:
			c = openKeys{}
			continue
		}
		if flow > 0 && t.Type != token.MappingStartType && t.Type != token.SequenceStartType {
			continue
		}
		switch {
		case t.Type == token.SequenceEntryType:
			c.item(t.Position.Column, t.Position.Line)
		case t.Type == token.MappingValueType && i+1 < len(toks) && toks[i+1].Position != nil:
			k := toks[i+1]
			c.key(k.Value, k.Position.Column, k.Position.Line)
		case i > 0 && toks[i-1].Type == token.MappingValueType:
			// a key: its ':' comes next
		default:
			c.valued = true
		}
	}
	return c
}

// key opens key name at column col, closing what it ends.
func (c *openKeys) key(name string, col, line int) {
	for len(c.frames) > 0 && c.frames[len(c.frames)-1].col >= col {
		c.frames = c.frames[:len(c.frames)-1]
	}
	c.frames = append(c.frames, frame{col: col, key: name, line: line})
	c.valued = false
}

// item opens a sequence item whose '-' is at column col.
func (c *openKeys) item(col, line int) {
	for len(c.frames) > 0 && c.frames[len(c.frames)-1].col > col {
		c.frames = c.frames[:len(c.frames)-1]
	}
	next := 0
	if n := len(c.frames); n > 0 && c.frames[n-1].col == col && c.frames[n-1].key == "" {
		next = c.frames[n-1].item + 1
		c.frames = c.frames[:n-1]
	}
	c.frames = append(c.frames, frame{col: col, item: next, line: line})
	c.valued = true
}

// path returns the key path the error is in: the innermost key's when it
// has no value yet (the error is its value), else its mapping's. parent
// asks for the mapping's in any case.
func (c *openKeys) path(parent bool) string {
	fs := c.frames
	if n := len(fs); n > 0 && fs[n-1].key != "" && (c.valued || parent) {
		fs = fs[:n-1]
	}
	s := ""
	for _, f := range fs {
		if f.key == "" {
			s += fmt.Sprintf("[%d]", f.item)
		} else {
			s = JoinPath(s, f.key)
		}
	}
	return s
}

// indentHint compares the indentation of line, where the error is, with
// the innermost key's on an earlier line: most "not allowed in this
// context" errors are a key out of line with its neighbours.
func (c *openKeys) indentHint(line, indent int) string {
	for i := len(c.frames) - 1; i >= 0; i-- {
		f := c.frames[i]
		if f.key == "" || f.line >= line {
			continue
		}
		at := f.col - 1
		switch {
		case indent < at:
			return fmt.Sprintf(" (indented %d spaces where %q on line %d is at %d: indented too little?)", indent, f.key, f.line, at)
		case indent > at:
			return fmt.Sprintf(" (indented %d spaces where %q on line %d is at %d: indented too deep?)", indent, f.key, f.line, at)
		}
		return ""
	}
	return ""
}
