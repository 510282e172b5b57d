package live

import (
	"bytes"
	_ "embed" // the page and its script are embedded with go:embed
	"fmt"

	"github.com/loadlens/loadlens/internal/web"
)

//go:embed dashboard.html.tmpl
var dashboardHTML string

//go:embed dashboard.js
var dashboardJS string

// dashboardPage returns the dashboard's page and its Content-Security-Policy,
// which the server also sends as a header. The page holds no run data: its
// script receives everything as JSON events and shows it as text.
func dashboardPage() ([]byte, string, error) {
	var b bytes.Buffer
	csp, err := web.Render(&b, web.Page{Title: "loadlens · live", Template: dashboardHTML, Script: dashboardJS, ConnectSelf: true,
		Footer: "Live dashboard of loadlens; it updates every second while the run lasts, and report.html in the run directory keeps it all afterwards."})
	if err != nil {
		return nil, "", fmt.Errorf("dashboard page: %w", err)
	}
	return b.Bytes(), csp, nil
}
