package app

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/loadlens/loadlens/internal/history"
	"github.com/loadlens/loadlens/internal/report"
	"github.com/loadlens/loadlens/internal/units"
)

// LoadRun reads a run directory (or its run.db) back into a report input.
// A run that never finished — killed, or still running — reads as
// incomplete, with its thresholds judged on what was recorded.
func LoadRun(path string) (*report.Input, error) {
	db := RunDB(path)
	rd, err := OpenRun(db)
	if err != nil {
		return nil, err
	}
	defer rd.Close()
	meta := rd.Meta()
	run, err := rd.Run()
	if err != nil {
		return nil, err
	}
	defs, err := DecodeThresholds(meta.Extra["thresholds"], meta.Layout)
	if err != nil {
		return nil, err
	}
	in := &report.Input{Name: meta.Name, Dir: filepath.Dir(db), Version: meta.Version, Start: meta.Start,
		Run: run, Thresholds: defs, Host: meta.Host, CPUs: meta.CPUs, Args: meta.Args, TestFile: meta.TestFile,
		TestSource: meta.TestSource, BodyCaps: decodeBodyCaps(meta.Extra["body_caps"])}
	if in.Tags, err = decodeTags(meta.Extra[tagsKey]); err != nil {
		return nil, fmt.Errorf("%s: %w", db, err)
	}
	if in.Shape = meta.Extra[shapeKey]; in.Shape == "" {
		in.Shape = layoutShape(meta.Layout)
	}
	if in.Agents, err = decodeAgents(meta.Extra[agentsKey]); err != nil {
		return nil, fmt.Errorf("%s: the per-agent table: %w", db, err)
	}
	if in.Outputs, err = decodeOutputs(meta.Extra[outputsKey]); err != nil {
		return nil, fmt.Errorf("%s: the outputs' results: %w", db, err)
	}
	if in.HTTPVersions, err = decodeHTTPVersions(meta.Extra[httpVersionsKey]); err != nil {
		return nil, fmt.Errorf("%s: the HTTP versions: %w", db, err)
	}
	set, err := rd.Series()
	if err != nil {
		return nil, err
	}
	scrapeErrs, err := rd.ScrapeErrors()
	if err != nil {
		return nil, err
	}
	fin, finished := rd.Finish()
	if fin.NoticesKept {
		in.Notices = fin.Notices // what the run said, its failed scrapes among them, as it said it
	} else {
		// An older run.db keeps no notices: its failed scrapes are all that can be said again.
		for _, e := range scrapeErrs {
			in.Notices = append(in.Notices, fmt.Sprintf("scraping %s (%s) failed %s from %s: %s: %s", e.Target, e.URL, units.CountOf(int64(e.Failures), "time", "times"), units.Clock(e.FirstSec), e.Kind, e.First))
		}
	}
	if finished && len(fin.Thresholds) == len(defs) {
		in.Status, in.End, in.Results, in.ExitCode = fin.Status, fin.End, fin.Thresholds, fin.ExitCode
	} else {
		in.Status, in.ExitCode = StatusIncomplete, history.NoExitCode // killed before its end: no code was recorded
		in.End = meta.Start.Add(run.Elapsed())
		in.Results = evaluate(run, defs, nil)
		in.Notices = append(in.Notices, fmt.Sprintf("the run did not finish; this summary covers its first %s", run.Elapsed()))
	}
	st, err := rd.Traces()
	if err != nil {
		return nil, err
	}
	in.Traces = viewTraces(st, meta.Extra["trace_ui"])
	diagnoseRun(in, set)
	return in, nil
}

// Summary prints a past run's summary; asJSON prints summary.json instead.
func Summary(w io.Writer, path string, asJSON bool) error {
	in, err := LoadRun(path)
	if err != nil {
		return err
	}
	if asJSON {
		b, err := report.SummaryJSON(in)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(w, "%s\n", b)
		return err
	}
	if err := report.WriteText(w, in); err != nil {
		return err
	}
	// As the run ended its summary: with where its report is, when it is there.
	if p := filepath.Join(in.Dir, ReportFile); fileExists(p) {
		_, err = fmt.Fprint(w, report.PathLine("report", p))
	}
	return err
}

func fileExists(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular()
}
