package historyrun

import (
	"bytes"
	"os"
	"path/filepath"

	"github.com/loadlens/loadlens/internal/app"

	"github.com/loadlens/loadlens/internal/history"
	"github.com/loadlens/loadlens/internal/report"
)

// writeHistoryHTML writes history.html at cfg.HTML, each run linked to its
// report.html relative to the page, when that report is there.
func writeHistoryHTML(cfg HistoryConfig, tests []*history.Test, m history.Method) error {
	links := map[string]string{}
	base, err := filepath.Abs(filepath.Dir(cfg.HTML))
	if err != nil {
		return err
	}
	for _, t := range tests {
		for _, s := range t.Series {
			for _, r := range s.Runs {
				page := app.ReportFile
				if r.Capacity != nil {
					page = "capacity.html" // a search's page
				}
				if link, ok := reportLink(base, r.Dir, page); ok {
					links[r.Key()] = link
				}
			}
		}
	}
	var b bytes.Buffer
	if err := report.WriteHistoryHTML(&b, tests, links, m); err != nil {
		return err
	}
	if err := app.WriteFile(cfg.HTML, b.Bytes()); err != nil {
		return err
	}
	_, err = cfg.Out.Write([]byte(report.PathLine("history", cfg.HTML)))
	return err
}

// reportLink is the href of a run directory's page (report.html, a
// search's capacity.html) from the directory base, with '/' separators.
func reportLink(base, dir, page string) (string, bool) {
	if dir == "" {
		return "", false
	}
	path, err := filepath.Abs(filepath.Join(dir, page))
	if err != nil {
		return "", false
	}
	if _, err := os.Stat(path); err != nil {
		return "", false
	}
	rel, err := filepath.Rel(base, path)
	if err != nil {
		return "", false
	}
	return filepath.ToSlash(rel), true
}
