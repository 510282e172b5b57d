package plan

import (
	"github.com/loadlens/loadlens/internal/yamldoc"
)

// checkDataValues refuses a held data file's value that a request's URL or
// header inserts as it is but HTTP cannot carry there: a control character
// such as a line break, which CSV allows in a quoted field. Found when the
// test is read, it names the file, row and column; at run time it was a
// request that failed without being sent, counted and given a rate.
func (p *parser) checkDataValues(n yamldoc.Node, s *Scenario) {
	d := s.Data
	where := map[int]string{} // column -> the first request part that inserts it raw
	Walk(s.Flow, func(st *Step) {
		r := st.Request
		if st.Kind != RequestStep || r == nil {
			return
		}
		note := func(slots []int, part string) {
			for _, c := range slots {
				if _, seen := where[c]; !seen && c < len(d.Columns) {
					where[c] = part + " of " + r.Method + " " + r.URL.String()
				}
			}
		}
		note(r.URL.RawVars(), "the URL")
		for _, h := range r.Headers {
			note(h.Value.RawVars(), "the header "+h.Name)
		}
	})
	for c := range d.Columns {
		part, used := where[c]
		if !used {
			continue
		}
		for i, row := range d.Rows {
			if at, b := controlByte(row[c]); at >= 0 {
				p.Errs.Add(n.Pos, n.Path, "CSV file %s, data row %d, column %s: the value has %s at byte %d; it fills %s, which cannot carry one (a request with it would not be sent)",
					d.File, i+1, d.Columns[c], controlName(b), at+1, part)
				return // one is enough to fix the file
			}
		}
	}
}

// controlByte returns the index and value of s's first control character
// (below 0x20, or DEL), or -1.
func controlByte(s string) (int, byte) {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] == 0x7f {
			return i, s[i]
		}
	}
	return -1, 0
}

// controlName words a control character for an error.
func controlName(b byte) string {
	switch b {
	case '\r', '\n':
		return "a line break"
	case '\t':
		return "a tab"
	}
	return "a control character (byte " + string("0123456789abcdef"[b>>4]) + string("0123456789abcdef"[b&15]) + ")"
}
