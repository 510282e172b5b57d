package cli

import (
	"flag"
	"net"
	"os"
	"strconv"
	"strings"

	"github.com/loadlens/loadlens/internal/app"
	"github.com/loadlens/loadlens/internal/live"
	"github.com/loadlens/loadlens/internal/plan"
)

// defaultDashboardAddr serves the dashboard on this machine only, on a free port.
const defaultDashboardAddr = "127.0.0.1:0"

// outputFlags are the flags for what a run shows and writes besides run.db.
type outputFlags struct {
	dashboardAddr  string
	dashboardToken string
	noDashboard    bool
	junit          string
	summaryMD      string
	outs           listFlag
}

// dashboardTokenEnv names the variable that gives the dashboard's token,
// which, unlike a flag, other users of the machine cannot read in ps.
const dashboardTokenEnv = "LOADLENS_DASHBOARD_TOKEN"

func (o *outputFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&o.dashboardAddr, "dashboard-addr", defaultDashboardAddr, "serve the live dashboard on this host:port (port 0: a free one); "+
		"off this machine's loopback it asks for a token")
	fs.StringVar(&o.dashboardToken, "dashboard-token", "", "token the dashboard asks every browser for (default: $"+dashboardTokenEnv+
		", else none on loopback and a random one elsewhere)")
	fs.BoolVar(&o.noDashboard, "no-dashboard", false, "serve no live dashboard")
	fs.StringVar(&o.junit, "junit", "", "also write JUnit XML here: a test case per threshold and per check")
	fs.StringVar(&o.summaryMD, "summary-md", "", "also write a Markdown summary here (e.g. $GITHUB_STEP_SUMMARY)")
	fs.Var(&o.outs, "out", "send every second to a metrics store, KIND=URL with KIND one of "+strings.Join(plan.OutputKinds(), ", ")+
		" (repeatable; see docs/outputs.md)")
}

// runConfig completes rc with the outputs the flags ask for: the
// dashboard, the --out stores, JUnit and the Markdown summary.
func (o *outputFlags) runConfig(rc app.RunConfig) (app.RunConfig, error) {
	dash, err := o.dashboard()
	if err != nil {
		return rc, err
	}
	outs, err := o.metricsOutputs()
	if err != nil {
		return rc, err
	}
	rc.Dashboard, rc.Outs, rc.JUnit, rc.SummaryMD = dash, outs, o.junit, o.summaryMD
	return rc, nil
}

// metricsOutputs returns the --out outputs.
func (o *outputFlags) metricsOutputs() ([]plan.Output, error) {
	var outs []plan.Output
	for _, s := range o.outs {
		out, err := plan.ParseOutput(s)
		if err != nil {
			return nil, usageErr("--out: %v", err)
		}
		outs = append(outs, out)
	}
	return outs, nil
}

// dashboard returns where to serve the dashboard; the zero value serves none.
func (o *outputFlags) dashboard() (app.DashboardConfig, error) {
	if o.noDashboard {
		return app.DashboardConfig{}, nil
	}
	host, port, err := net.SplitHostPort(o.dashboardAddr)
	if err != nil {
		return app.DashboardConfig{}, usageErr("--dashboard-addr %q: want host:port, e.g. 127.0.0.1:8089 (%v)", o.dashboardAddr, err)
	}
	if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		return app.DashboardConfig{}, usageErr("--dashboard-addr %q: the port must be a number from 0 to 65535", o.dashboardAddr)
	}
	if host == "" {
		return app.DashboardConfig{}, usageErr("--dashboard-addr %q: name the host, e.g. 127.0.0.1:%s (an empty host would listen on every interface)", o.dashboardAddr, port)
	}
	token, from := o.dashboardToken, "--dashboard-token"
	if token == "" {
		token, from = os.Getenv(dashboardTokenEnv), dashboardTokenEnv
	}
	if token != "" {
		if err := live.CheckToken(token); err != nil {
			return app.DashboardConfig{}, usageErr("%s: %v", from, err)
		}
	}
	return app.DashboardConfig{Addr: o.dashboardAddr, Token: token}, nil
}
