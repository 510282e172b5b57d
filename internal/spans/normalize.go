package spans

import "strings"

// normalize writes a statement on one line with its literals as ?, as the
// OpenTelemetry Java agent's sanitizer does, so that a statement sent with
// its values inlined (by a driver or SDK that does not sanitize) is one
// statement, not one per value. Comments go (an sqlcommenter tag makes
// every call distinct); quoted identifiers and placeholders ($1, :name,
// ?1) stay; a list of placeholders only, as an IN list of any length,
// becomes "(?, …)". The result is bounded to maxName bytes.
func normalize(q string) string {
	var b strings.Builder
	b.Grow(min(len(q), 2*maxName))
	space := false // a space is owed before the next token
	emit := func(s string) {
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		b.WriteString(s)
	}
	for i := 0; i < len(q) && b.Len() <= 4*maxName; {
		c := q[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f':
			space, i = true, i+1
		case c == '-' && strings.HasPrefix(q[i:], "--"):
			i = skipTo(q, i, "\n")
			space = true
		case c == '/' && strings.HasPrefix(q[i:], "/*"):
			i = skipTo(q, i+2, "*/")
			space = true
		case c == '\'':
			j := skipQuoted(q, i, escapes(q, i))
			if prefixed(q, i) {
				dropLast(&b)
			}
			emit("?")
			i = j
		case c == '"' || c == '`':
			j := skipQuoted(q, i, false)
			emit(q[i:j])
			i = j
		case c == '$' && dollarTag(q, i) > 0:
			tag := q[i : i+dollarTag(q, i)]
			i = skipTo(q, i+len(tag), tag)
			emit("?")
		case isDigit(c) && !afterWord(q, i):
			i = skipNumber(q, i)
			emit("?")
		default:
			j := i + 1
			for j < len(q) && wordByte(q[j]) && wordByte(c) {
				j++
			}
			emit(q[i:j])
			i = j
		}
	}
	return bounded(collapseLists(b.String()), maxName)
}

// skipTo returns the index after the next end at or after i, or len(q).
func skipTo(q string, i int, end string) int {
	if k := strings.Index(q[i:], end); k >= 0 {
		return i + k + len(end)
	}
	return len(q)
}

// skipQuoted returns the index after the quoted text starting at i: a
// doubled quote is one quote, and with escapes a backslash escapes.
func skipQuoted(q string, i int, escapes bool) int {
	quote := q[i]
	for j := i + 1; j < len(q); j++ {
		switch {
		case escapes && q[j] == '\\':
			j++
		case q[j] == quote && j+1 < len(q) && q[j+1] == quote:
			j++
		case q[j] == quote:
			return j + 1
		}
	}
	return len(q)
}

// escapes reports whether the string literal at i is PostgreSQL's E'…',
// in which a backslash escapes.
func escapes(q string, i int) bool {
	return prefixed(q, i) && (q[i-1] == 'E' || q[i-1] == 'e')
}

// prefixed reports whether the literal at i has a prefix letter (E'…',
// N'…', X'…', B'…'), which is part of the literal.
func prefixed(q string, i int) bool {
	return i > 0 && strings.IndexByte("EeNnXxBb", q[i-1]) >= 0 && (i == 1 || !wordByte(q[i-2]))
}

// dropLast removes the byte last written: a literal's prefix letter.
func dropLast(b *strings.Builder) {
	s := b.String()
	b.Reset()
	b.WriteString(s[:len(s)-1])
}

// dollarTag returns the length of a dollar quote's tag ($$ or $name$)
// starting at i, or 0 when it is not one ($1 is a placeholder).
func dollarTag(q string, i int) int {
	j := i + 1
	for j < len(q) && (wordByte(q[j]) && !isDigit(q[j]) || j > i+1 && isDigit(q[j])) {
		j++
	}
	if j < len(q) && q[j] == '$' {
		return j + 1 - i
	}
	return 0
}

// afterWord reports whether the digit at i continues a word or a
// placeholder (t1, $1, :1, ?1) rather than starting a number.
func afterWord(q string, i int) bool {
	return i > 0 && (wordByte(q[i-1]) || strings.IndexByte("$:?@#.", q[i-1]) >= 0)
}

// skipNumber returns the index after the number at i: digits, a
// fraction, an exponent, or a 0x… hex number.
func skipNumber(q string, i int) int {
	j := i
	if strings.HasPrefix(q[i:], "0x") || strings.HasPrefix(q[i:], "0X") {
		j += 2
		for j < len(q) && strings.IndexByte("0123456789abcdefABCDEF", q[j]) >= 0 {
			j++
		}
		return j
	}
	for j < len(q) && (isDigit(q[j]) || q[j] == '.') {
		j++
	}
	if j+1 < len(q) && (q[j] == 'e' || q[j] == 'E') && (isDigit(q[j+1]) || (q[j+1] == '-' || q[j+1] == '+') && j+2 < len(q) && isDigit(q[j+2])) {
		j += 2
		for j < len(q) && isDigit(q[j]) {
			j++
		}
	}
	return j
}

// collapseLists writes a parenthesised list of two or more placeholders
// as "(?, …)", so an IN list's length does not make a new statement.
func collapseLists(s string) string {
	if !strings.Contains(s, "?,") && !strings.Contains(s, "? ,") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '(' {
			if j, n := placeholderList(s, i+1); n >= 2 {
				b.WriteString("(?, …)")
				i = j
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// placeholderList reads "?, ?, …)" from i: the index of its ")" and how
// many placeholders it lists; n is 0 when it is anything else.
func placeholderList(s string, i int) (int, int) {
	n := 0
	for {
		for i < len(s) && s[i] == ' ' {
			i++
		}
		if i >= len(s) || s[i] != '?' {
			return i, 0
		}
		n, i = n+1, i+1
		for i < len(s) && s[i] == ' ' {
			i++
		}
		switch {
		case i < len(s) && s[i] == ')':
			return i, n
		case i < len(s) && s[i] == ',':
			i++
		default:
			return i, 0
		}
	}
}

// bounded cuts s to at most n bytes (not inside a UTF-8 sequence), marking
// the cut with "…".
func bounded(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + "…"
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// wordByte reports whether c can be part of an identifier or keyword;
// bytes of UTF-8 sequences count, so names in any script stay whole.
func wordByte(c byte) bool {
	return c == '_' || c >= 0x80 || isDigit(c) || (c|0x20) >= 'a' && (c|0x20) <= 'z'
}

// maxBrief bounds a statement in brief.
const maxBrief = 96

// Brief is a statement as a short label: a select list longer than a few
// columns (an ORM's, of every mapped column) becomes "…", which keeps what
// tells two statements on one table apart (count(*) or rows, the where,
// order and limit clauses), bounded to about maxBrief bytes.
func Brief(stmt string) string {
	lower := strings.ToLower(stmt)
	if strings.HasPrefix(lower, "select ") {
		if from := topLevelFrom(lower); from > 0 && from-len("select ") > 32 {
			stmt = stmt[:len("select ")] + "…" + stmt[from:]
		}
	}
	return bounded(stmt, maxBrief)
}

// topLevelFrom returns the index of the " from " that ends a select
// list, outside parentheses, or -1.
func topLevelFrom(lower string) int {
	depth := 0
	for i := 0; i < len(lower); i++ {
		switch lower[i] {
		case '(':
			depth++
		case ')':
			depth--
		case ' ':
			if depth == 0 && strings.HasPrefix(lower[i:], " from ") {
				return i
			}
		}
	}
	return -1
}
