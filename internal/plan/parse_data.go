package plan

import (
	"errors"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
)

// data parses a scenario's data source, `data: users.csv` or
// `data: {file, mode, on_exhausted}`, and loads the CSV file.
func (p *parser) data(n node) *Data {
	d := &Data{Mode: Sequential, StopOnEmpty: true}
	fileNode := n
	if isMapping(n.v) {
		o, ok := p.object(n, "a data source", []string{"file", "mode", "on_exhausted"})
		if !ok {
			return nil
		}
		if m, ok := o.get("mode"); ok {
			switch s, _ := p.oneOf(m, "sequential", "random", "unique"); s {
			case "random":
				d.Mode = Random
			case "unique":
				d.Mode = Unique
			}
		}
		if e, ok := o.get("on_exhausted"); ok {
			s, valid := p.oneOf(e, "stop", "fail")
			d.StopOnEmpty = s != "fail"
			if valid && d.Mode != Unique {
				p.errs.add(e.key, e.path, "on_exhausted applies only to mode: unique (other modes reuse rows)")
			}
		}
		f, ok := o.get("file")
		if !ok {
			p.errs.missing(n.key, n.path, n.path, "missing key \"file\": the CSV file's path")
			return nil
		}
		fileNode = f
	}
	path, ok := p.nonEmpty(fileNode, "a CSV file path, or a mapping with file, mode and on_exhausted")
	if !ok {
		return nil
	}
	d.File = path
	if !p.loadCSV(fileNode, d) {
		return nil
	}
	return d
}

// loadCSV reads d.File (relative to the test file): a header row naming the
// variables, then at least one data row. A file larger than MaxDataInMemory
// is checked and indexed, not held: the engine streams its rows.
func (p *parser) loadCSV(n node, d *Data) bool {
	full := d.File
	if !filepath.IsAbs(full) {
		full = filepath.Join(p.dir, full)
	}
	header, rows, count, file, err := ScanCSV(full, MaxDataInMemory)
	switch {
	case errors.Is(err, errEmptyCSV):
		p.errs.add(n.pos, n.path, "CSV file %s is empty: it needs a header row naming the columns and at least one data row", full)
		return false
	case errors.Is(err, errNotRegular) || errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission):
		p.errs.add(n.pos, n.path, "cannot read CSV file %s: %v", full, err)
		return false
	case err != nil:
		p.errs.add(n.pos, n.path, "bad CSV file %s: %v", full, err)
		return false
	}
	ok := true
	for i, col := range header {
		col = strings.TrimSpace(col)
		header[i] = col
		if !p.checkVarName(n.pos, n.path, "CSV column", col) {
			ok = false
		} else if slices.Contains(header[:i], col) {
			p.errs.add(n.pos, n.path, "CSV column %q appears twice in %s", col, full)
			ok = false
		}
	}
	if count == 0 {
		p.errs.add(n.pos, n.path, "CSV file %s has a header row but no data rows", full)
		return false
	}
	d.Columns, d.Rows, d.Count, d.Stream = header, rows, count, file
	return ok
}
