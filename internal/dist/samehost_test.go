package dist

import (
	"fmt"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/loadlens/loadlens/internal/diagnose"
	"github.com/loadlens/loadlens/internal/store"
)

func TestSameHostIsEveryAgentOnLoopback(t *testing.T) {
	tests := []struct {
		addrs []string
		want  bool
	}{
		{[]string{"127.0.0.1:16565", "127.0.0.1:16566"}, true},
		{[]string{"[::1]:6565", "localhost:6565"}, true},
		{[]string{"127.0.0.1:16565", "10.0.0.8:6565"}, false},
		{[]string{"agent-0.loadlens:6565"}, false},
		{nil, false},
	}
	for _, tt := range tests {
		g := fakeGenerator(oneGETLayout(), make([]int, len(tt.addrs))...)
		for i, a := range tt.addrs {
			g.agents[i].addr = a
		}
		if got := g.SameHost(); got != tt.want {
			t.Errorf("SameHost of %q = %v, want %v", tt.addrs, got, tt.want)
		}
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
	rd, err := store.Open(filepath.Join(res.Dir, "run.db"))
	if err != nil {
		t.Fatal(err)
	}
	set, err := rd.Series()
	rd.Close()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{diagnose.HostCPU, diagnose.HostCPUs} {
		if s := set.Find(name, "target", "loadlens"); len(s) != 1 || len(s[0].Points) == 0 {
			t.Errorf("run.db of local agents has %d %s series, want one with points", len(s), name)
		}
	}
}
