package units

import (
	"strings"
	"unicode/utf8"
)

// longWord is the length past which a word is taken for a value (a URL, a
// quoted body) that may be cut inside; shorter words, field names among
// them, are kept whole or dropped whole.
const longWord = 24

// Cut fits a message into width columns, keeping whole words: it drops
// words from the middle and puts "…" in their place, so that what failed
// (the start) and the fix (the end) survive. A word longer than longWord
// is shortened in its middle first. s is returned whole when it fits.
func Cut(s string, width int) string {
	if utf8.RuneCountInString(s) <= width {
		return s
	}
	words := strings.Fields(s)
	over := utf8.RuneCountInString(strings.Join(words, " ")) - width
	if i := longest(words); i >= 0 && over > 0 {
		n := utf8.RuneCountInString(words[i])
		words[i] = Middle(words[i], max(n-over, longWord/2))
	}
	if joined := strings.Join(words, " "); utf8.RuneCountInString(joined) <= width {
		return joined
	}
	if out, ok := dropMiddle(words, width); ok {
		return out
	}
	return Middle(s, width)
}

// longest returns the index of the longest word over longWord that is not
// a field name, or -1.
func longest(words []string) int {
	best, n := -1, longWord
	for i, w := range words {
		if l := utf8.RuneCountInString(w); l > n && !fieldName(w) {
			best, n = i, l
		}
	}
	return best
}

// Scores of a cut, in columns of text kept: a "…" between clauses (after
// a word ending in ':', ';' or ',') reads as a skipped clause, not a torn
// sentence, and a dropped field name (Content-Length, allow_hosts) loses
// what the message is about.
const (
	tailClause = 12 // the kept end is whole clauses: the fix
	headClause = 5  // the kept start ends a clause
	lostField  = 15 // per field name dropped
)

// dropMiddle keeps the first h and the last t words with "…" between,
// choosing the split that scores best (on a tie, the longer start); it
// reports false when not even one word at each end fits.
func dropMiddle(words []string, width int) (string, bool) {
	n := len(words)
	pre := make([]int, n+1) // pre[i]: runes of words[:i] joined
	fields := make([]int, n+1)
	for i, w := range words {
		pre[i+1] = pre[i] + utf8.RuneCountInString(w)
		fields[i+1] = fields[i]
		if fieldName(w) {
			fields[i+1]++
		}
	}
	joined := func(from, to int) int { return pre[to] - pre[from] + max(to-from-1, 0) }
	bestH, bestT, best := 0, 0, 0
	for h := 1; h < n-1; h++ {
		for t := n - h - 1; t >= 1; t-- {
			size := joined(0, h) + 3 + joined(n-t, n) // " … " between
			if size > width {
				continue
			}
			score := size - 3 - lostField*(fields[n-t]-fields[h])
			if clauseEnd(words[n-t-1]) {
				score += tailClause
			}
			if clauseEnd(words[h-1]) {
				score += headClause
			}
			if bestH == 0 || score >= best {
				bestH, bestT, best = h, t, score
			}
		}
	}
	if bestH == 0 {
		return "", false
	}
	return strings.Join(words[:bestH], " ") + " … " + strings.Join(words[n-bestT:], " "), true
}

// clauseEnd reports whether a word ends a clause.
func clauseEnd(w string) bool {
	return strings.HasSuffix(w, ":") || strings.HasSuffix(w, ";") || strings.HasSuffix(w, ",")
}

// fieldName reports whether a word looks like a header or key name: letters
// joined by '-' or '_' (Content-Length, allow_hosts), not a path or URL.
func fieldName(w string) bool {
	w = strings.Trim(w, `"'.,:;()`)
	if w == "" || strings.ContainsAny(w, "/.:=") {
		return false
	}
	for i := 1; i < len(w)-1; i++ {
		if (w[i] == '-' || w[i] == '_') && isLetter(w[i-1]) && isLetter(w[i+1]) {
			return true
		}
	}
	return false
}

// isLetter reports whether b is an ASCII letter.
func isLetter(b byte) bool { return b|0x20 >= 'a' && b|0x20 <= 'z' }
