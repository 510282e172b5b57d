package har

import "slices"

// dict finds where the values of a set occur as words in a text (neither
// byte beside one continues it), in time linear in the text for a
// recording's values: a value is looked up only where a word starts with
// its first three bytes, and only at the lengths values so starting have.
// Every value a correlation looks for is at least 3 bytes (see worth).
type dict struct {
	ids    map[string]int    // value → its number
	vals   []string          // number → value
	lens   map[[3]byte][]int // first three bytes → the lengths of the values so starting, longest first
	work   int64             // bytes compared so far, against budget
	budget int64             // the most work correlation may take; then it stops, and says so
}

func newDict(budget int64) *dict {
	return &dict{ids: map[string]int{}, lens: map[[3]byte][]int{}, budget: budget}
}

// add puts v in the set (once), returning its number.
func (d *dict) add(v string) int {
	if id, ok := d.ids[v]; ok {
		return id
	}
	id := len(d.vals)
	d.ids[v] = id
	d.vals = append(d.vals, v)
	if len(v) >= 3 {
		k := [3]byte{v[0], v[1], v[2]}
		ls := d.lens[k]
		if !slices.Contains(ls, len(v)) {
			ls = append(ls, len(v))
			slices.SortFunc(ls, func(a, b int) int { return b - a })
			d.lens[k] = ls
		}
	}
	return id
}

// id returns v's number, when v is in the set.
func (d *dict) id(v string) (int, bool) {
	id, ok := d.ids[v]
	return id, ok
}

// spent reports whether correlation has used its budget.
func (d *dict) spent() bool { return d.work > d.budget }

// at calls f with the number of each value that occurs as a word at i in
// text, longest first, until f returns false. i must start a word: the
// caller checks the byte before it.
func (d *dict) at(text string, i int, f func(id int) bool) {
	if i+3 > len(text) {
		return
	}
	d.work++
	for _, n := range d.lens[[3]byte{text[i], text[i+1], text[i+2]}] {
		end := i + n
		if end > len(text) || (end < len(text) && isWordByte(text[end])) {
			continue
		}
		d.work += int64(n)
		if id, ok := d.ids[text[i:end]]; ok && !f(id) {
			return
		}
	}
}

// each calls f with the position and number of every value that occurs as
// a word in text, in order of position, longest first at each.
func (d *dict) each(text string, f func(i, id int)) {
	for i := 0; i < len(text) && !d.spent(); i++ {
		if i > 0 && isWordByte(text[i-1]) {
			continue
		}
		d.at(text, i, func(id int) bool { f(i, id); return true })
	}
}

// isWordByte reports whether c continues a value, so a match next to it is
// part of something longer.
func isWordByte(c byte) bool {
	return c == '_' || ('0' <= c && c <= '9') || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z')
}
