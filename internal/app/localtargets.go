package app

import (
	"net"
	"net/url"

	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/report"
)

// localTargets returns the names of the test's scraped targets whose URL
// is a loopback address: they run on loadlens's own host, so its readings
// of the host's CPU are theirs too (diagnose.Input.LocalTargets). None
// for a distributed run, whose agents' hosts are not the coordinator's,
// nor for a test that does not parse again.
func localTargets(in *report.Input) []string {
	if len(in.TestSource) == 0 || len(in.Agents) > 0 {
		return nil
	}
	p, err := plan.Parse(in.TestFile, in.TestSource, lenientEnv)
	if err != nil {
		return nil
	}
	var out []string
	for _, t := range p.Observe.Targets {
		if loopbackURL(t.URL) {
			out = append(out, t.Name)
		}
	}
	return out
}

// loopbackURL reports whether a URL's host is localhost or a loopback IP.
func loopbackURL(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil {
		return false
	}
	h := u.Hostname()
	if h == "localhost" {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}
