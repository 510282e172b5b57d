package plan

import (
	"strings"

	"github.com/loadlens/loadlens/internal/tmpl"
)

// partsBuilder joins literal text and templates into one template. Constant
// templates are folded into the literal text as they come, so a URL or body
// with many constant pieces becomes a few parts in linear time.
type partsBuilder struct {
	parts []*tmpl.Template
	lit   strings.Builder
	size  int // bytes of literal text and template sources so far
}

// text appends literal text.
func (b *partsBuilder) text(s string) {
	b.size += len(s)
	b.lit.WriteString(s)
}

// template appends t's output escaped with e.
func (b *partsBuilder) template(t *tmpl.Template, e tmpl.Escape) {
	t = t.Escaped(e)
	if c, ok := t.Const(); ok {
		b.text(c)
		return
	}
	b.flush()
	b.size += len(t.String())
	b.parts = append(b.parts, t)
}

// flush moves the pending literal text into a part.
func (b *partsBuilder) flush() {
	if b.lit.Len() > 0 {
		b.parts = append(b.parts, tmpl.Literal(b.lit.String()))
		b.lit.Reset()
	}
}

// done returns the joined template.
func (b *partsBuilder) done() *tmpl.Template {
	b.flush()
	if len(b.parts) == 1 {
		return b.parts[0]
	}
	return tmpl.Concat(b.parts...)
}
