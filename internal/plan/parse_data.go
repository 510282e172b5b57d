package plan

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"github.com/loadlens/loadlens/internal/yamldoc"
)

// data parses a scenario's data source, `data: users.csv` or
// `data: {file, mode, on_exhausted, encoding}`, and loads the CSV file.
func (p *parser) data(n yamldoc.Node) *Data {
	d := &Data{Mode: Sequential, StopOnEmpty: true}
	fileNode := n
	if yamldoc.IsMapping(n.V) {
		o, ok := p.Object(n, "a data source", []string{"file", "mode", "on_exhausted", "encoding"})
		if !ok {
			return nil
		}
		if m, ok := o.Get("mode"); ok {
			switch s, _ := p.OneOf(m, "sequential", "random", "unique"); s {
			case "random":
				d.Mode = Random
			case "unique":
				d.Mode = Unique
			}
		}
		if e, ok := o.Get("on_exhausted"); ok {
			s, valid := p.OneOf(e, "stop", "fail")
			d.StopOnEmpty = s != "fail"
			if valid && d.Mode != Unique {
				p.Errs.Add(e.Key, e.Path, "on_exhausted applies only to mode: unique (other modes reuse rows)")
			}
		}
		if e, ok := o.Get("encoding"); ok {
			if s, valid := p.OneOf(e, Encodings...); valid {
				d.Encoding = s
			}
		}
		f, ok := o.Get("file")
		if !ok {
			p.Errs.Missing(n.Key, n.Path, n.Path, "missing key \"file\": the CSV file's path")
			return nil
		}
		fileNode = f
	}
	path, ok := p.NonEmpty(fileNode, "a CSV file path, or a mapping with file, mode and on_exhausted")
	if !ok {
		return nil
	}
	d.File, d.FileAt = path, p.at(fileNode)
	if !p.loadCSV(fileNode, d) {
		return nil
	}
	return d
}

// loadCSV reads d.File (relative to the test file): a header row naming the
// variables, then at least one data row. A file larger than MaxDataInMemory
// is checked and indexed, not held: the engine streams its rows.
func (p *parser) loadCSV(n yamldoc.Node, d *Data) bool {
	full := d.File
	if !filepath.IsAbs(full) {
		full = filepath.Join(p.dir, full)
	}
	header, rows, count, file, err := ScanCSV(full, MaxDataInMemory, d.Encoding)
	switch {
	case errors.Is(err, errEmptyCSV):
		p.Errs.Add(n.Pos, n.Path, "CSV file %s is empty: it needs a header row naming the columns and at least one data row", full)
		return false
	case errors.Is(err, errNotRegular) || errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission):
		p.Errs.Add(n.Pos, n.Path, "cannot read CSV file %s: %v", full, err)
		return false
	case err != nil:
		p.Errs.Add(n.Pos, n.Path, "bad CSV file %s: %v", full, err)
		return false
	}
	ok := true
	for i, col := range header {
		col = strings.TrimSpace(col)
		header[i] = col
		if !p.checkVarName(n.Pos, n.Path, fmt.Sprintf("CSV column %d", i+1), col) {
			ok = false
		} else if slices.Contains(header[:i], col) {
			p.Errs.Add(n.Pos, n.Path, "CSV column %d (%q) appears twice in %s", i+1, yamldoc.Excerpt(col), full)
			ok = false
		}
	}
	if count == 0 {
		p.Errs.Add(n.Pos, n.Path, "CSV file %s has a header row but no data rows", full)
		return false
	}
	d.Columns, d.Rows, d.Count, d.Stream = header, rows, count, file
	return ok
}
