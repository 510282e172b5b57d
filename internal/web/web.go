// Package web holds what every loadlens page shares — report.html,
// compare.html, capacity.html and the live dashboard: the page shell (the
// head with its Content-Security-Policy, the stylesheet, the header and
// the footer; see Render), the vendored uPlot chart library (MIT, its
// LICENSE kept beside it), the chart panels built on it and the formatters
// of their figures. Everything is embedded in the binary, so pages need no
// network: nothing is fetched from a CDN.
package web

import (
	"crypto/sha256"
	_ "embed" // the assets below are embedded with go:embed
	"encoding/base64"
	"html/template"
	"strings"
)

//go:embed uplot/uPlot.iife.min.js
var uplotJS string

//go:embed uplot/uPlot.min.css
var uplotCSS string

//go:embed uplot/LICENSE
var uplotLicense string

//go:embed charts.js
var chartsJS string

//go:embed findings.js
var findingsJS string

//go:embed observed.js
var observedJS string

//go:embed style.css
var styleCSS string

// UPlotVersion is the version of the vendored uPlot.
const UPlotVersion = "1.6.32"

// Scripts returns the scripts every page runs before its own: uPlot, then
// the shared panels (which define the global LL), the findings they mark,
// and the server charts.
func Scripts() []string {
	return []string{uplotJS, chartsJS, findingsJS, observedJS}
}

// css returns the stylesheet of every page: uPlot's, then loadlens's.
func css() string { return uplotCSS + "\n" + styleCSS }

// uplotLicenseText returns uPlot's licence text, which a page embeds beside the code.
func uplotLicenseText() string { return uplotLicense }

// CSP returns a Content-Security-Policy that runs exactly the given inline
// scripts (by hash) and nothing else: no other script, no inline event
// handler, no fetch, image or font from anywhere. connectSelf allows
// connections back to the page's own origin, for the live event stream.
// Escaping is the first defence against markup from the target; this is
// the second.
func CSP(connectSelf bool, scripts ...string) string {
	var sb strings.Builder
	sb.WriteString("default-src 'none'; script-src")
	for _, s := range scripts {
		sum := sha256.Sum256([]byte(s))
		sb.WriteString(" 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'")
	}
	sb.WriteString("; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'")
	if connectSelf {
		sb.WriteString("; connect-src 'self'")
	}
	return sb.String()
}

// pageScripts returns the scripts a page runs — the shared ones, then the
// page's own — ready for html/template, and the Content-Security-Policy
// that runs exactly them. connectSelf is as for CSP.
func pageScripts(connectSelf bool, own ...string) ([]template.JS, string) {
	scripts := append(Scripts(), own...)
	out := make([]template.JS, len(scripts))
	for i, s := range scripts {
		out[i] = template.JS(s) // our own embedded code, not data
	}
	return out, CSP(connectSelf, scripts...)
}
