package runs

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/loadlens/loadlens/internal/app"
	"github.com/loadlens/loadlens/internal/history"
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
	ExitCode int    // history.NoExitCode when the run never finished
	Judged   int    // how many thresholds were evaluated: 0 for a run without any
	// AllFailed is true when requests were sent and every one failed.
	AllFailed bool
	// Disturbed is the kind of the critical finding that says the load
	// generator or its host limited the run (history.Run.Disturbed), or "".
	Disturbed string
	Err       error // the run.db could not be read
}

// ListRuns returns the runs under parent, newest first, each with whether
// its own diagnosis found the generator limited it, as `loadlens history`
// reads it.
func ListRuns(ctx context.Context, parent string) ([]RunInfo, error) {
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
	markDisturbed(ctx, parent, out)
	sort.SliceStable(out, func(i, j int) bool {
		if !out[i].Start.Equal(out[j].Start) {
			return out[i].Start.After(out[j].Start)
		}
		return out[i].Dir > out[j].Dir
	})
	return out, nil
}

// markDisturbed sets each run's Disturbed from the results folder's index
// (history.db, brought up to date as `loadlens history` does: a run's
// diagnosis is read once, not at each listing). A folder whose index cannot
// be kept leaves them unmarked: `history` cannot read it either.
func markDisturbed(ctx context.Context, parent string, out []RunInfo) {
	recs, _, err := app.SyncIndex(ctx, parent)
	if err != nil {
		return
	}
	byDir := make(map[string]string, len(recs))
	for i := range recs {
		byDir[filepath.Base(recs[i].Dir)] = recs[i].Disturbed
	}
	for i := range out {
		out[i].Disturbed = byDir[filepath.Base(out[i].Dir)]
	}
}

func readRunInfo(dir, db string) RunInfo {
	info := RunInfo{Dir: dir, ExitCode: history.NoExitCode, Status: app.StatusIncomplete}
	rd, err := store.Open(db)
	if err != nil {
		info.Err = err
		return info
	}
	defer rd.Close()
	meta := rd.Meta()
	info.Name, info.Start = meta.Name, meta.Start
	if run, err := rd.Run(); err == nil {
		tot := run.Total()
		info.Requests = tot.Requests
		var failed int64
		for _, n := range tot.Failures {
			failed += n
		}
		info.AllFailed = tot.Requests > 0 && failed == tot.Requests
		info.Elapsed = run.Elapsed()
	} else {
		info.Err = err
	}
	if fin, ok := rd.Finish(); ok {
		info.Status, info.ExitCode, info.Elapsed, info.Judged = fin.Status, fin.ExitCode, fin.Elapsed, len(fin.Thresholds)
	}
	return info
}

// The runs table: NAME shows at most maxNameWidth runes (the run
// directory, always whole, is the handle); STARTED is to the second.
const (
	maxNameWidth = 16
	startedFmt   = "2006-01-02 15:04:05" // to the second: two runs in a minute stay apart
	sep          = "  "
)

// WriteRuns prints runs as a table whose columns fit their values. A run
// directory is never cut: it is what `summary`, `report` and `compare`
// take. When the directories are too long for one 100-column row, each
// run takes two lines, its directory alone on the first.
func WriteRuns(w io.Writer, runs []RunInfo) error {
	dirW, nameW, durW, reqW, resW := len("RUN"), len("NAME"), len("DURATION"), len("REQUESTS"), len("RESULT")
	results := make([]string, len(runs))
	for i, r := range runs {
		dirW = max(dirW, utf8.RuneCountInString(filepath.Base(r.Dir)))
		nameW = max(nameW, min(utf8.RuneCountInString(r.Name), maxNameWidth))
		durW = max(durW, len(units.Duration(r.Elapsed)))
		reqW = max(reqW, len(units.Count(r.Requests)))
		results[i] = runResult(&r)
		if r.Err == nil { // an error's text is the last column: it may run on
			resW = max(resW, utf8.RuneCountInString(results[i]))
		}
	}
	rest := nameW + len(startedFmt) + durW + reqW + resW + 4*len(sep)
	twoLines := dirW+len(sep)+rest > units.Columns
	var sb strings.Builder
	row := func(run, name, started, dur, reqs, result string) {
		if twoLines {
			fmt.Fprintf(&sb, "%s\n%s", run, runIndent)
		} else {
			fmt.Fprintf(&sb, "%s%s", pad(run, dirW), sep)
		}
		fmt.Fprintf(&sb, "%s%s%-*s%s%*s%s%*s%s%s\n", pad(name, nameW), sep,
			len(startedFmt), started, sep, durW, dur, sep, reqW, reqs, sep, result)
	}
	row("RUN", "NAME", "STARTED", "DURATION", "REQUESTS", "RESULT")
	for i, r := range runs {
		row(filepath.Base(r.Dir), r.Name, r.Start.Local().Format(startedFmt),
			units.Duration(r.Elapsed), units.Count(r.Requests), results[i])
	}
	for _, r := range runs {
		if r.Disturbed != "" {
			sb.WriteString(units.Wrap(history.DisturbedNote, units.Columns, "", ""))
			break
		}
	}
	for _, r := range runs {
		if r.Err == nil && r.ExitCode == history.NoExitCode {
			sb.WriteString(units.Wrap(unfinishedNote, units.Columns, "", ""))
			break
		}
	}
	_, err := io.WriteString(w, sb.String())
	return err
}

// unfinishedNote says what an incomplete run without an end in run.db is,
// under a list that shows one: no exit code is made up for it.
const unfinishedNote = "incomplete: run.db recorded no end and so no exit code; the run was killed (SIGKILL, an OOM kill, " +
	"its machine stopped) before its own summary, or is still running; `loadlens summary RUN` reads what it recorded."

// runIndent starts a run's second line when its directory takes the first.
const runIndent = "  "

// runResult is a run's RESULT, as `loadlens history` says it
// (history.Result): "passed" or "failed" only when thresholds were
// evaluated; a run without any says so, as its exit code 0 does not mean
// that anything was judged.
func runResult(r *RunInfo) string {
	if r.Err != nil {
		return "unreadable: " + r.Err.Error()
	}
	return history.Result(history.Outcome{Status: r.Status, ExitCode: r.ExitCode, Thresholds: r.Judged, AllFailed: r.AllFailed, Disturbed: r.Disturbed})
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
