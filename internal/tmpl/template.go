package tmpl

import (
	"slices"
	"strings"
)

// Literal returns a template that renders s as is, whatever it contains.
func Literal(s string) *Template {
	return &Template{parts: appendPart(nil, part{kind: litPart, text: s}), src: s}
}

// Concat returns a template rendering parts one after the other. Nested parts
// are flattened and adjacent literal text merged; nil parts are skipped.
func Concat(parts ...*Template) *Template {
	t := &Template{}
	var src []byte
	var lit strings.Builder // adjacent literals are joined once, not by repeated +=, which is quadratic
	flush := func() {
		t.parts = appendPart(t.parts, part{kind: litPart, text: lit.String()})
		lit.Reset()
	}
	for _, p := range parts {
		if p == nil {
			continue
		}
		src = append(src, p.src...)
		for _, q := range p.parts {
			if q.kind == litPart {
				lit.WriteString(q.text)
				continue
			}
			flush()
			t.parts = appendPart(t.parts, q)
		}
	}
	flush()
	t.src = string(src)
	return t
}

// Escaped returns a template that renders t's output escaped with e. Its
// String is t's. A constant t is escaped once, here, rather than per render;
// Raw and unknown escapings return t itself.
func (t *Template) Escaped(e Escape) *Template {
	if t == nil || (e != JSONString && e != QueryComponent && e != JSONValue) {
		return t
	}
	if s, ok := t.Const(); ok {
		return &Template{parts: appendPart(nil, part{kind: litPart, text: string(appendEscaped(nil, []byte(s), e))}), src: t.src}
	}
	return &Template{parts: []part{{kind: escapedPart, esc: e, sub: t.parts}}, src: t.src}
}

// Const returns the template's output when it has no dynamic part.
func (t *Template) Const() (string, bool) {
	if t == nil {
		return "", true
	}
	switch {
	case len(t.parts) == 0:
		return "", true
	case len(t.parts) == 1 && t.parts[0].kind == litPart:
		return t.parts[0].text, true
	}
	return "", false
}

// String returns the template's source as written, for display.
func (t *Template) String() string {
	if t == nil {
		return ""
	}
	return t.src
}

// UsesVars returns the variable slots the template reads, ascending and
// without repeats, so a caller can check that every slot gets a value.
func (t *Template) UsesVars() []int {
	if t == nil {
		return nil
	}
	return sortedSlots(collectSlots(nil, t.parts, true))
}

// collectSlots appends the slots of parts and their sub-parts, those an
// escapedPart holds only when escaped is true.
func collectSlots(slots []int, parts []part, escaped bool) []int {
	for i := range parts {
		switch parts[i].kind {
		case varPart:
			slots = append(slots, parts[i].slot)
		case escapedPart:
			if escaped {
				slots = collectSlots(slots, parts[i].sub, escaped)
			}
		case urlPart:
			slots = collectSlots(collectSlots(slots, parts[i].sub, escaped), parts[i].query, escaped)
		}
	}
	return slots
}

// sortedSlots returns slots ascending and without repeats.
func sortedSlots(slots []int) []int {
	slices.Sort(slots)
	return slices.Compact(slots)
}

// appendPart appends p to parts, merging it into a preceding literal and
// dropping empty literals, so constant templates are a single part.
func appendPart(parts []part, p part) []part {
	if p.kind != litPart {
		return append(parts, p)
	}
	if p.text == "" {
		return parts
	}
	if n := len(parts); n > 0 && parts[n-1].kind == litPart {
		// Callers own parts: Concat and Compile build fresh slices.
		parts[n-1].text += p.text
		return parts
	}
	return append(parts, p)
}

// RawVars returns the variable slots the template inserts as they are,
// not escaped: their values reach the output byte for byte.
func (t *Template) RawVars() []int {
	if t == nil {
		return nil
	}
	return sortedSlots(collectSlots(nil, t.parts, false))
}
