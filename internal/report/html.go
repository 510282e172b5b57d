package report

import (
	_ "embed" // the page template and script are embedded with go:embed
	"fmt"
	"io"
	"strings"

	"github.com/loadlens/loadlens/internal/web"
)

//go:embed report.html.tmpl
var reportTemplate string

//go:embed report.js
var reportJS string

// htmlData is what report.html's script draws from.
type htmlData struct {
	Meta      PageMeta      `json:"meta"`
	Frames    []Frame       `json:"frames"`
	Spectra   []Spectrum    `json:"spectra"`
	Observed  ObservedDelta `json:"observed"`  // the server's series and the generator's own
	Diagnosis Diagnosis     `json:"diagnosis"` // the findings the charts mark
}

// WriteHTML writes report.html: one self-contained page (data, scripts
// and styles inline) that opens offline from disk, in the shell every
// page shares (web.Render): text from the run — endpoint names, error
// messages, the test — is escaped, the embedded data cannot end its
// script element, and a Content-Security-Policy lets only the page's own
// scripts run.
func WriteHTML(w io.Writer, in *Input) error {
	v := newHTMLView(in)
	data := htmlData{Meta: NewPageMeta(in, 0), Frames: Frames(in), Spectra: Spectra(in),
		Observed: ObservedForPage(in.Series, runUnit(in.Run)), Diagnosis: v.Diagnosis}
	_, err := web.Render(w, web.Page{Title: v.Verdict + " · " + v.Name + " · loadlens report", Generator: "loadlens " + v.Version,
		Footer:   "Made by loadlens " + v.Version + ". Charts by uPlot " + web.UPlotVersion + ".",
		Template: reportTemplate, View: v, Data: data, Script: reportJS})
	if err != nil {
		return fmt.Errorf("report.html: %w", err)
	}
	return nil
}

// verdictClass is the CSS class of a verdict badge.
func verdictClass(v string) string {
	switch v {
	case VerdictPass:
		return "pass"
	case VerdictFail:
		return "fail"
	}
	return "none"
}

// statusNote says how the run ended when that is not "completed".
func statusNote(status string) string {
	if status == "completed" || status == "" {
		return ""
	}
	return strings.ToUpper(status[:1]) + status[1:]
}
