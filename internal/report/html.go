package report

import (
	"bytes"
	_ "embed" // the page template and script are embedded with go:embed
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"strings"

	"github.com/loadlens/loadlens/internal/web"
)

//go:embed report.html.tmpl
var reportTemplate string

//go:embed report.js
var reportJS string

// pageTemplate is parsed once per report: reports are rare, and a
// package-level parsed template would be global state.
func pageTemplate() (*template.Template, error) {
	return template.New("report").Parse(reportTemplate)
}

// htmlData is what report.html's script draws from.
type htmlData struct {
	Meta      PageMeta      `json:"meta"`
	Frames    []Frame       `json:"frames"`
	Spectra   []Spectrum    `json:"spectra"`
	Observed  ObservedDelta `json:"observed"`  // the server's series and the generator's own
	Diagnosis Diagnosis     `json:"diagnosis"` // the findings the charts mark
}

// WriteHTML writes report.html: one self-contained page (data, scripts
// and styles inline) that opens offline from disk. Text from the run —
// endpoint names, error messages, the test — is escaped by html/template,
// the embedded data is JSON with <, > and & escaped, and a
// Content-Security-Policy lets only the page's own scripts run.
func WriteHTML(w io.Writer, in *Input) error {
	tmpl, err := pageTemplate()
	if err != nil {
		return fmt.Errorf("report.html: template: %w", err)
	}
	v := newHTMLView(in)
	data, err := htmlJSON(htmlData{Meta: NewPageMeta(in, 0), Frames: Frames(in), Spectra: Spectra(in),
		Observed: ObservedForPage(in.Series), Diagnosis: v.Diagnosis})
	if err != nil {
		return fmt.Errorf("report.html: %w", err)
	}
	v.Data = template.JS(data) // safe: htmlJSON escapes <, > and &, so no </script> can appear
	v.Scripts, v.CSP = web.PageScripts(false, reportJS)
	v.CSS = template.CSS(web.CSS())
	v.UPlotLicense, v.UPlotVersion = web.UPlotLicense(), web.UPlotVersion
	var b bytes.Buffer
	if err := tmpl.Execute(&b, v); err != nil {
		return fmt.Errorf("report.html: %w", err)
	}
	_, err = w.Write(b.Bytes())
	return err
}

// htmlJSON encodes v for a <script type="application/json"> block: with
// <, >, & and the JavaScript line separators escaped, nothing in it can
// end the block or be read as markup.
func htmlJSON(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(true)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSpace(b.Bytes()), nil
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
