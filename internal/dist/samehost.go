package dist

import (
	"net"
	"strings"
)

// SameHost reports whether every agent runs on this host: reached on its
// loopback (local agents, `run --agents 127.0.0.1:…`) and named as this
// host is (the welcome's os.Hostname). Their host's CPU is then the
// coordinator's to read, and late iterations on a host busy with other
// work are named so, not blamed on agents that used a hundredth of a core.
// A loopback address alone proves nothing: `k8s run` reaches pods on other
// nodes, as ssh -L reaches other machines, through 127.0.0.1 ports, and the
// coordinator's own busy host would read as theirs (generator-host-busy:
// "not the target's").
func (g *generator) SameHost() bool {
	for _, a := range g.agents {
		if a.remote == nil || !loopback(a.addr) || g.hostname == "" || a.who.Host != g.hostname {
			return false
		}
	}
	return len(g.agents) > 0
}

// loopback reports whether an agent's address (host:port, or a host) is
// on this host's loopback.
func loopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		host = addr
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}
