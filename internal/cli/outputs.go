package cli

import (
	"flag"
	"net"
	"strconv"
)

// defaultDashboardAddr serves the dashboard on this machine only, on a free port.
const defaultDashboardAddr = "127.0.0.1:0"

// outputFlags are the flags for what a run shows and writes besides run.db.
type outputFlags struct {
	dashboardAddr string
	noDashboard   bool
	junit         string
	summaryMD     string
}

func (o *outputFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&o.dashboardAddr, "dashboard-addr", defaultDashboardAddr, "serve the live dashboard on this host:port (port 0: a free one)")
	fs.BoolVar(&o.noDashboard, "no-dashboard", false, "serve no live dashboard")
	fs.StringVar(&o.junit, "junit", "", "also write JUnit XML here: a test case per threshold and per check")
	fs.StringVar(&o.summaryMD, "summary-md", "", "also write a Markdown summary here (e.g. $GITHUB_STEP_SUMMARY)")
}

// dashboard returns the dashboard address to serve on, "" for none.
func (o *outputFlags) dashboard() (string, error) {
	if o.noDashboard {
		return "", nil
	}
	host, port, err := net.SplitHostPort(o.dashboardAddr)
	if err != nil {
		return "", usageErr("--dashboard-addr %q: want host:port, e.g. 127.0.0.1:8089 (%v)", o.dashboardAddr, err)
	}
	if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		return "", usageErr("--dashboard-addr %q: the port must be a number from 0 to 65535", o.dashboardAddr)
	}
	if host == "" {
		return "", usageErr("--dashboard-addr %q: name the host, e.g. 127.0.0.1:%s (an empty host would listen on every interface)", o.dashboardAddr, port)
	}
	return o.dashboardAddr, nil
}
