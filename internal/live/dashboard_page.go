package live

import (
	"bytes"
	_ "embed" // the page and its script are embedded with go:embed
	"fmt"
	"html/template"

	"github.com/loadlens/loadlens/internal/web"
)

//go:embed dashboard.html
var dashboardHTML string

//go:embed dashboard.js
var dashboardJS string

// dashboardPage returns the dashboard's page and its Content-Security-Policy.
// The page holds no run data: its script receives everything as JSON
// events and shows it as text.
func dashboardPage() ([]byte, string, error) {
	tmpl, err := template.New("dashboard").Parse(dashboardHTML)
	if err != nil {
		return nil, "", fmt.Errorf("dashboard page: %w", err)
	}
	scripts, csp := web.PageScripts(true, dashboardJS)
	view := struct {
		CSS     template.CSS
		Scripts []template.JS
		License string
	}{CSS: template.CSS(web.CSS()), Scripts: scripts, License: web.UPlotLicense()}
	var b bytes.Buffer
	if err := tmpl.Execute(&b, view); err != nil {
		return nil, "", fmt.Errorf("dashboard page: %w", err)
	}
	return b.Bytes(), csp, nil
}
