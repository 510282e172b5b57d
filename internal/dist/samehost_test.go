package dist

import (
	"fmt"
	"net"
	"os"
	"runtime"
	"testing"

	"github.com/loadlens/loadlens/internal/diagnose"
	"github.com/loadlens/loadlens/internal/sample"
)

// TestSameHostIsEveryAgentOnLoopbackNamedAsThisHost: an agent is on this
// host when reached on its loopback and named as it is; a loopback port
// alone is a port-forward's (`k8s run`) or a tunnel's as well.
func TestSameHostIsEveryAgentOnLoopbackNamedAsThisHost(t *testing.T) {
	here, err := os.Hostname()
	if err != nil || here == "" {
		t.Skip("this host has no name")
	}
	tests := []struct {
		addrs, hosts []string
		want         bool
	}{
		{[]string{"127.0.0.1:16565", "127.0.0.1:16566"}, []string{here, here}, true},
		{[]string{"[::1]:6565", "localhost:6565"}, []string{here, here}, true},
		{[]string{"127.0.0.1:16565", "10.0.0.8:6565"}, []string{here, here}, false},
		{[]string{"agent-0.loadlens:6565"}, []string{here}, false},
		{[]string{"127.0.0.1:41235", "127.0.0.1:41236"}, []string{"run-7-agent-0-x2k9p", "run-7-agent-1-q8d4z"}, false}, // k8s run's port-forwards
		{[]string{"127.0.0.1:16565", "127.0.0.1:16566"}, []string{here, "build-box"}, false},                            // ssh -L to another machine
		{nil, nil, false},
	}
	for _, tt := range tests {
		g := fakeGenerator(oneGETLayout(), make([]int, len(tt.addrs))...)
		for i, a := range tt.addrs {
			g.agents[i].addr, g.agents[i].who.Host = a, tt.hosts[i]
		}
		if got := g.SameHost(); got != tt.want {
			t.Errorf("SameHost of %q on %q = %v, want %v", tt.addrs, tt.hosts, got, tt.want)
		}
	}
}

// TestPortForwardedAgentsLeaveThisHostsCPUOut: agents reached through
// 127.0.0.1 ports but naming another host (pods behind `k8s run`'s
// port-forwards) are not on this host: the run records no host CPU, so a
// busy coordinator cannot read as their host busy (generator-host-busy,
// "not the target's", which history leaves out).
func TestPortForwardedAgentsLeaveThisHostsCPUOut(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the host's CPU is read from /proc/stat")
	}
	res, out := runRogue(t, func(c *conn, nc net.Conn, l sample.Layout) { // its welcome names host "fake"
		sendSeconds(c, l, 0, 1, 2)
		_ = c.send(kindDone, done{Seconds: 3})
	})
	if res.ExitCode != 0 {
		t.Fatalf("exit %d:\n%.3000s", res.ExitCode, out)
	}
	set := runSeries(t, res.Dir)
	for _, name := range []string{diagnose.HostCPU, diagnose.HostCPUs, diagnose.HostSteal} {
		if s := set.Find(name, "target", "loadlens"); len(s) != 0 {
			t.Errorf("run.db of an agent on another host, reached on 127.0.0.1, has %d %s series: this host's", len(s), name)
		}
	}
	if s := set.Find(diagnose.GeneratorCPU, "target", "loadlens"); len(s) != 1 {
		t.Errorf("run.db has %d %s series, want the agent's", len(s), diagnose.GeneratorCPU)
	}
}

// TestLocalAgentsRecordTheirHostsCPU: agents on this host's loopback share
// its CPUs, so the run records the host's CPU beside theirs (trial C's two
// local agents on a host at load 9 read generator-bound at 0.01 cores for
// want of it).
func TestLocalAgentsRecordTheirHostsCPU(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the host's CPU is read from /proc/stat")
	}
	srv, _ := countingServer(t, nil)
	path := writeTest(t, fmt.Sprintf(`
name: local
base_url: %s
scenarios:
  users:
    vus: 2
    duration: 2s
    flow:
      - get: /c
`, srv.URL), nil)
	res, out, err := coordinateTest(t, Config{TestFile: path, Agents: addrsOf(startAgents(t, 2, token, nil)), Token: token})
	if err != nil {
		t.Fatalf("Coordinate: %v\n%s", err, out)
	}
	set := runSeries(t, res.Dir)
	for _, name := range []string{diagnose.HostCPU, diagnose.HostCPUs} {
		if s := set.Find(name, "target", "loadlens"); len(s) != 1 || len(s[0].Points) == 0 {
			t.Errorf("run.db of local agents has %d %s series, want one with points", len(s), name)
		}
	}
}
