package tmpl

import (
	"strings"
)

// Builder joins literal text and templates into one template. Constant
// templates are folded into the literal text as they come, so a URL or body
// with many constant pieces becomes a few parts in linear time.
type Builder struct {
	parts []*Template
	lit   strings.Builder
	size  int // bytes of literal text and template sources so far
}

// Text appends literal text.
func (b *Builder) Text(s string) {
	b.size += len(s)
	b.lit.WriteString(s)
}

// Template appends t's output escaped with e.
func (b *Builder) Template(t *Template, e Escape) {
	t = t.Escaped(e)
	if c, ok := t.Const(); ok {
		b.Text(c)
		return
	}
	b.flush()
	b.size += len(t.String())
	b.parts = append(b.parts, t)
}

// flush moves the pending literal text into a part.
func (b *Builder) flush() {
	if b.lit.Len() > 0 {
		b.parts = append(b.parts, Literal(b.lit.String()))
		b.lit.Reset()
	}
}

// Done returns the joined template.
func (b *Builder) Done() *Template {
	b.flush()
	if len(b.parts) == 1 {
		return b.parts[0]
	}
	return Concat(b.parts...)
}

// Size returns the bytes of literal text and template sources so far, for
// callers that bound what they build.
func (b *Builder) Size() int { return b.size }
