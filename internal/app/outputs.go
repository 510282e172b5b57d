package app

import (
	"bytes"
	"errors"
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

// write renders in into every file asked for; a file that cannot be
// written does not keep the others from being written, and each failure
// names its file.
func (o Outputs) write(in *report.Input) error {
	var errs []error
	if o.HTML != "" {
		var b bytes.Buffer
		if err := report.WriteHTML(&b, in); err != nil {
			errs = append(errs, err)
		} else {
			errs = append(errs, WriteFile(o.HTML, b.Bytes()))
		}
	}
	if o.JUnit != "" {
		b, err := report.JUnit(in)
		if err == nil {
			err = WriteFile(o.JUnit, b)
		}
		errs = append(errs, err)
	}
	if o.SummaryMD != "" {
		errs = append(errs, WriteFile(o.SummaryMD, report.Markdown(in)))
	}
	return errors.Join(errs...)
}

// WriteFile writes b to path, creating the file's directory. A regular
// file is written whole or not at all: into a temporary file beside it,
// renamed over it once complete, so that a full disk never leaves a
// truncated or empty report behind. Anything else (a pipe, /dev/stdout) is
// written in place.
func WriteFile(path string, b []byte) error {
	if dir := filepath.Dir(path); dir != "." {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("%s could not be written: %w", path, err)
		}
	}
	if info, err := os.Stat(path); err == nil && !info.Mode().IsRegular() {
		if err := os.WriteFile(path, b, 0o644); err != nil {
			return fmt.Errorf("%s could not be written: %w", path, err)
		}
		return nil
	}
	if err := writeWhole(path, b); err != nil {
		return fmt.Errorf("%s could not be written: %w", path, err)
	}
	return nil
}

// writeWhole writes b into a temporary file in path's directory and renames
// it to path; on any failure the temporary file is removed and path is
// left as it was.
func writeWhole(path string, b []byte) (err error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = f.Close()
			_ = os.Remove(f.Name())
		}
	}()
	if _, err = f.Write(b); err != nil {
		return err
	}
	if err = f.Chmod(0o644); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
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
