package web

import (
	"bytes"
	_ "embed" // the page shell is embedded with go:embed
	"encoding/json"
	"fmt"
	"html/template"
	"io"
)

//go:embed page.html
var pageShell string

// Page is one loadlens page: what the shell around every page needs, and
// the page's own template and view. Its strings are plain text: the shell
// and the page's template escape them.
type Page struct {
	Title     string // the document's title
	Generator string // the generator meta tag, e.g. "loadlens v1.0"; "" for none
	Footer    string // the footer's line, above uPlot's licence
	// Template defines the page's "header" (inside the shared header, after
	// the brand), "body" and optionally "style" (CSS after the shared
	// stylesheet); each is executed with View.
	Template string
	View     any
	// Data, when not nil, is encoded as JSON into the page's
	// <script type="application/json" id="loadlens-data"> for its script.
	Data   any
	Script string // the page's own script, run after the shared ones
	// ConnectSelf lets the page connect back to its own origin (the live
	// dashboard's event stream); see CSP.
	ConnectSelf bool
}

// shellView is what the shell's template fills in.
type shellView struct {
	CSP, Title, Generator, Footer string
	CSS                           template.CSS
	UPlotLicense                  string
	Data                          template.JS
	Scripts                       []template.JS
	View                          any
}

// Render writes p inside the shell every loadlens page shares: the head
// with the Content-Security-Policy that runs exactly the shared scripts and
// the page's own (also returned, for a server to send as a header), the
// stylesheet, the header, the footer with uPlot's licence, the data and the
// scripts. Text is escaped by html/template; the data is JSON with <, >, &
// and the line separators escaped, so nothing in it can end its script
// element; the scripts are loadlens's own embedded code.
func Render(w io.Writer, p Page) (csp string, err error) {
	tmpl, err := template.New("page").Parse(pageShell) // parsed per page: pages are rare, and a parsed global would be state
	if err != nil {
		return "", fmt.Errorf("page shell: %w", err)
	}
	if _, err := tmpl.Parse(p.Template); err != nil {
		return "", fmt.Errorf("%s: template: %w", p.Title, err)
	}
	v := shellView{Title: p.Title, Generator: p.Generator, Footer: p.Footer, CSS: template.CSS(css()),
		UPlotLicense: uplotLicenseText(), View: p.View}
	if p.Data != nil {
		data, err := ScriptJSON(p.Data)
		if err != nil {
			return "", fmt.Errorf("%s: %w", p.Title, err)
		}
		v.Data = template.JS(data) // safe: ScriptJSON escapes <, > and &, so no </script> can appear
	}
	var own []string
	if p.Script != "" {
		own = append(own, p.Script)
	}
	v.Scripts, v.CSP = pageScripts(p.ConnectSelf, own...)
	var b bytes.Buffer
	if err := tmpl.Execute(&b, v); err != nil {
		return "", fmt.Errorf("%s: %w", p.Title, err)
	}
	_, err = w.Write(b.Bytes())
	return v.CSP, err
}

// ScriptJSON encodes v for a <script type="application/json"> element:
// with <, >, & and the JavaScript line separators escaped, nothing in it
// can end the element or be read as markup.
func ScriptJSON(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(true)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSpace(b.Bytes()), nil
}
