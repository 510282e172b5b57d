package cli

import (
	"slices"
	"testing"
)

func TestMemAvailable(t *testing.T) {
	tests := map[string]int64{
		"MemTotal:       24684092 kB\nMemFree:        23404484 kB\nMemAvailable:   24095952 kB\n": 24095952 << 10,
		"MemTotal: 1 kB\n":              0,
		"MemAvailable: lots kB\n":       0,
		"MemAvailable:\n":               0,
		"MemAvailable:        512 kB\n": 512 << 10,
	}
	for in, want := range tests {
		if got := memAvailable([]byte(in)); got != want {
			t.Errorf("memAvailable(%q) = %d, want %d", in, got, want)
		}
	}
}

func TestCgroupFiles(t *testing.T) {
	got := cgroupFiles("4:memory:/process_api/x\n3:cpuset:/\n0::/user.slice/a\n")
	want := [][2]string{
		{"/sys/fs/cgroup/memory/process_api/x/memory.limit_in_bytes", "/sys/fs/cgroup/memory/process_api/x/memory.usage_in_bytes"},
		{"/sys/fs/cgroup/memory/memory.limit_in_bytes", "/sys/fs/cgroup/memory/memory.usage_in_bytes"},
		{"/sys/fs/cgroup/user.slice/a/memory.max", "/sys/fs/cgroup/user.slice/a/memory.current"},
		{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.current"},
	}
	if !slices.Equal(got, want) {
		t.Errorf("cgroupFiles = %q\nwant %q", got, want)
	}
}

func TestReadMachineOnThisMachine(t *testing.T) {
	m := readMachine()
	if m.CPUs < 1 {
		t.Errorf("CPUs %d", m.CPUs)
	}
	if m.MemAvailable < 0 || m.OpenFiles < 0 {
		t.Errorf("memory %d, open files %d", m.MemAvailable, m.OpenFiles)
	}
}
