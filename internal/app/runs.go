package app

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/loadlens/loadlens/internal/store"
	"github.com/loadlens/loadlens/internal/units"
)

// RunInfo is one line of `loadlens runs`.
type RunInfo struct {
	Dir      string
	Name     string
	Start    time.Time
	Elapsed  time.Duration
	Requests int64
	Status   string // completed, aborted, interrupted, failed or incomplete
	ExitCode int    // -1 when the run never finished
	Err      error  // the run.db could not be read
}

// ListRuns returns the runs under parent, newest first.
func ListRuns(parent string) ([]RunInfo, error) {
	entries, err := os.ReadDir(parent)
	if err != nil {
		return nil, fmt.Errorf("results directory: %w", err)
	}
	var out []RunInfo
	for _, e := range entries {
		db := filepath.Join(parent, e.Name(), "run.db")
		if _, err := os.Stat(db); !e.IsDir() || err != nil {
			continue
		}
		out = append(out, readRunInfo(filepath.Join(parent, e.Name()), db))
	}
	sort.SliceStable(out, func(i, j int) bool {
		if !out[i].Start.Equal(out[j].Start) {
			return out[i].Start.After(out[j].Start)
		}
		return out[i].Dir > out[j].Dir
	})
	return out, nil
}

func readRunInfo(dir, db string) RunInfo {
	info := RunInfo{Dir: dir, ExitCode: -1, Status: StatusIncomplete}
	rd, err := store.Open(db)
	if err != nil {
		info.Err = err
		return info
	}
	defer rd.Close()
	meta := rd.Meta()
	info.Name, info.Start = meta.Name, meta.Start
	if run, err := rd.Run(); err == nil {
		info.Requests = run.Total().Requests
		info.Elapsed = run.Elapsed()
	} else {
		info.Err = err
	}
	if fin, ok := rd.Finish(); ok {
		info.Status, info.ExitCode, info.Elapsed = fin.Status, fin.ExitCode, fin.Elapsed
	}
	return info
}

// The widest the RUN and NAME columns grow, so that a table of ordinary runs
// fits a 100-column terminal; longer values are cut with "…".
const (
	maxRunWidth  = 32
	maxNameWidth = 16
)

// WriteRuns prints runs as a table whose columns fit their values.
func WriteRuns(w io.Writer, runs []RunInfo) error {
	runW, nameW, durW, reqW := len("RUN"), len("NAME"), len("DURATION"), len("REQUESTS")
	for _, r := range runs {
		runW = max(runW, min(utf8.RuneCountInString(r.Dir), maxRunWidth))
		nameW = max(nameW, min(utf8.RuneCountInString(r.Name), maxNameWidth))
		durW = max(durW, len(units.Duration(r.Elapsed)))
		reqW = max(reqW, len(units.Count(r.Requests)))
	}
	var sb strings.Builder
	row := func(run, name, started, dur, reqs, result string) {
		fmt.Fprintf(&sb, "%s  %s  %-19s  %*s  %*s  %s\n", pad(run, runW), pad(name, nameW), started, durW, dur, reqW, reqs, result)
	}
	row("RUN", "NAME", "STARTED", "DURATION", "REQUESTS", "RESULT")
	for _, r := range runs {
		result := r.Status
		switch {
		case r.Err != nil:
			result = "unreadable: " + r.Err.Error()
		case r.ExitCode == ExitOK:
			result = "passed"
		case r.ExitCode == ExitThresholdFailed:
			result = "thresholds failed (" + r.Status + ")"
		}
		row(r.Dir, r.Name, r.Start.Local().Format("2006-01-02 15:04:05"),
			units.Duration(r.Elapsed), units.Count(r.Requests), result)
	}
	_, err := io.WriteString(w, sb.String())
	return err
}

// pad fits s to width runes: cut with "…" when longer, padded with spaces
// when shorter (fmt's %-*s counts bytes, which misaligns non-ASCII names).
func pad(s string, width int) string {
	n := utf8.RuneCountInString(s)
	if n > width {
		r := []rune(s)
		return string(r[:width-1]) + "…"
	}
	return s + strings.Repeat(" ", width-n)
}
