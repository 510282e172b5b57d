package app

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	"github.com/loadlens/loadlens/internal/report"
)

// ReportFile is the name of the HTML report in a run directory.
const ReportFile = "report.html"

// Outputs are the files a run (or `loadlens report`) writes besides run.db.
type Outputs struct {
	HTML      string // report.html; "" writes none
	JUnit     string // JUnit XML; "" writes none
	SummaryMD string // Markdown summary; "" writes none
}

// write renders in into every file asked for, naming the one that failed.
func (o Outputs) write(in *report.Input) error {
	if o.HTML != "" {
		var b bytes.Buffer
		if err := report.WriteHTML(&b, in); err != nil {
			return err
		}
		if err := writeFile(o.HTML, b.Bytes()); err != nil {
			return err
		}
	}
	if o.JUnit != "" {
		b, err := report.JUnit(in)
		if err != nil {
			return err
		}
		if err := writeFile(o.JUnit, b); err != nil {
			return err
		}
	}
	if o.SummaryMD != "" {
		if err := writeFile(o.SummaryMD, report.Markdown(in)); err != nil {
			return err
		}
	}
	return nil
}

// writeFile writes b to path, creating the file's directory.
func writeFile(path string, b []byte) error {
	if dir := filepath.Dir(path); dir != "." {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("write %s: %w", path, err)
		}
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// ReportConfig is what `loadlens report` needs.
type ReportConfig struct {
	Run     string  // a run directory or its run.db
	Outputs Outputs // where to write; an empty HTML means report.html in the run directory
}

// Report rebuilds a past run's report.html (and JUnit and Markdown if
// asked) from its run.db, also for a run killed mid-way. It returns the
// path of the HTML report.
func Report(cfg ReportConfig) (string, error) {
	in, err := LoadRun(cfg.Run)
	if err != nil {
		return "", err
	}
	o := cfg.Outputs
	if o.HTML == "" {
		o.HTML = filepath.Join(in.Dir, ReportFile)
	}
	return o.HTML, o.write(in)
}
