package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// cfsPeriod is the CFS period the harness sets, in µs: the kernel's and
// Kubernetes' default, so a quota of 50,000 µs is half a core.
const cfsPeriod = 100_000

// Cgroups makes cgroup v1 CPU groups, the way a container runtime gives
// each container its own: cpu for the quota and throttling counts,
// cpuacct for the CPU time used. Missing or read-only hierarchies leave
// it unusable (OK false), and the harness falls back to taskset alone.
type Cgroups struct {
	cpu, cpuacct string // mount points of the two controllers (the same dir when co-mounted)
	prefix       string // names this harness's groups apart from others'
	seq          int    // each group is new: a restarted process is a new container with fresh counters
	Why          string // why cgroups are not used, when they are not
}

// NewCgroups finds the v1 cpu and cpuacct hierarchies and checks that a
// group can be made in them.
func NewCgroups() *Cgroups {
	c := &Cgroups{prefix: fmt.Sprintf("loadlens-truth-%d-", os.Getpid())}
	c.cpu, c.cpuacct = v1Mounts("/proc/self/mountinfo")
	if c.cpu == "" || c.cpuacct == "" {
		c.Why = "no cgroup v1 cpu and cpuacct hierarchies mounted"
		return c
	}
	for _, root := range []string{c.cpu, c.cpuacct} {
		removeStale(root)
	}
	probe := filepath.Join(c.cpu, c.prefix+"probe")
	if err := os.Mkdir(probe, 0o755); err != nil {
		c.Why = "cgroup v1 cpu hierarchy not writable: " + err.Error()
		return c
	}
	os.Remove(probe)
	return c
}

// OK reports whether groups can be made.
func (c *Cgroups) OK() bool { return c.Why == "" }

// v1Mounts reads the mount points of the cpu and cpuacct v1 controllers.
func v1Mounts(mountinfo string) (cpu, cpuacct string) {
	f, err := os.Open(mountinfo)
	if err != nil {
		return "", ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		pre, post, ok := strings.Cut(sc.Text(), " - ")
		fs := strings.Fields(pre)
		ps := strings.Fields(post)
		if !ok || len(fs) < 5 || len(ps) < 3 || ps[0] != "cgroup" {
			continue
		}
		for _, o := range strings.Split(ps[2], ",") {
			switch o {
			case "cpu":
				cpu = fs[4]
			case "cpuacct":
				cpuacct = fs[4]
			}
		}
	}
	return cpu, cpuacct
}

// Group is one CPU cgroup: a container of the catalogue's Kubernetes
// picture (Deployment names the pods cAdvisor's format shows).
type Group struct {
	Deployment string  // e.g. "truthapp"; the pod is named after it
	Container  string  // e.g. "app"
	Role       string  // role label loadlens's diagnosis reads: app, db
	Quota      float64 // cores; 0 for no limit
	Pod        string  // the pod's name: <deployment>-<replica set hash>-<suffix>, new for each group
	dirs       []string
	acct       string
	sched      schedTotals
}

// Make creates a group (in both controllers) with quota cores, 0 for none.
func (c *Cgroups) Make(deployment, container, role string, quota float64) (*Group, error) {
	c.seq++
	g := &Group{Deployment: deployment, Container: container, Role: role, Quota: quota, Pod: podName(deployment, c.seq)}
	name := fmt.Sprintf("%s%s-%d", c.prefix, deployment, c.seq)
	for _, root := range []string{c.cpu, c.cpuacct} {
		d := filepath.Join(root, name)
		if len(g.dirs) == 1 && d == g.dirs[0] {
			continue // co-mounted
		}
		if err := os.Mkdir(d, 0o755); err != nil && !os.IsExist(err) {
			return nil, fmt.Errorf("cgroup %s: %w", d, err)
		}
		g.dirs = append(g.dirs, d)
	}
	g.acct = filepath.Join(c.cpuacct, name)
	if err := os.WriteFile(filepath.Join(g.dirs[0], "cpu.cfs_period_us"), []byte(strconv.Itoa(cfsPeriod)), 0o644); err != nil {
		return nil, fmt.Errorf("cgroup period: %w", err)
	}
	return g, g.SetQuota(quota)
}

// JoinScript is the shell that moves itself into the group before exec.
func (g *Group) JoinScript() string {
	var b strings.Builder
	for _, d := range g.dirs {
		fmt.Fprintf(&b, "echo $$ > '%s' && ", filepath.Join(d, "cgroup.procs"))
	}
	return b.String()
}

// Chown lets a process of uid join the group (it writes its own pid).
func (g *Group) Chown(uid, gid int) error {
	for _, d := range g.dirs {
		if err := os.Chown(filepath.Join(d, "cgroup.procs"), uid, gid); err != nil {
			return err
		}
	}
	return nil
}

// CPUStat is what a group's files say at one moment.
type CPUStat struct {
	UsageSeconds float64 // cpuacct.usage
	Periods      uint64  // cpu.stat nr_periods
	Throttled    uint64  // cpu.stat nr_throttled
	ThrottledSec float64 // cpu.stat throttled_time
	RunSec       float64 // its threads' time on a CPU, /proc/<tid>/schedstat
	RunqueueSec  float64 // its threads' time waiting in a run queue
	Sched        bool    // the two above were read
}

// Read reads the group's counters.
func (g *Group) Read() (CPUStat, error) {
	var s CPUStat
	b, err := os.ReadFile(filepath.Join(g.acct, "cpuacct.usage"))
	if err != nil {
		return s, err
	}
	ns, err := strconv.ParseUint(strings.TrimSpace(string(b)), 10, 64)
	if err != nil {
		return s, fmt.Errorf("cpuacct.usage: %w", err)
	}
	s.UsageSeconds = float64(ns) / 1e9
	b, err = os.ReadFile(filepath.Join(g.dirs[0], "cpu.stat"))
	if err != nil {
		return s, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		k, v, _ := strings.Cut(line, " ")
		n, _ := strconv.ParseUint(strings.TrimSpace(v), 10, 64)
		switch k {
		case "nr_periods":
			s.Periods = n
		case "nr_throttled":
			s.Throttled = n
		case "throttled_time":
			s.ThrottledSec = float64(n) / 1e9
		}
	}
	return s, g.readSched(&s)
}

// Remove deletes the group; it fails while a process is still in it.
func (g *Group) Remove() error {
	var first error
	for _, d := range g.dirs {
		if err := os.Remove(d); err != nil && !os.IsNotExist(err) && first == nil {
			first = err
		}
	}
	return first
}

// podName names the seq-th pod of a deployment as Kubernetes would.
func podName(deployment string, seq int) string {
	return fmt.Sprintf("%s-5d8f7c9b6-%05d", deployment, seq)
}

// SetQuota changes the group's CPU limit, in cores (0: none).
func (g *Group) SetQuota(cores float64) error {
	q := "-1"
	if cores > 0 {
		q = strconv.Itoa(int(cores * cfsPeriod))
	}
	if err := os.WriteFile(filepath.Join(g.dirs[0], "cpu.cfs_quota_us"), []byte(q), 0o644); err != nil {
		return fmt.Errorf("cgroup quota: %w", err)
	}
	g.Quota = cores
	return nil
}

// removeStale removes what a harness killed with SIGKILL left in dir: its
// entries named loadlens-truth-<pid>-… whose process is gone (an empty
// cgroup, a scratch directory). A live harness's are left alone.
func removeStale(dir string) {
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		rest, ok := strings.CutPrefix(e.Name(), "loadlens-truth-")
		if !ok {
			continue
		}
		pid, err := strconv.Atoi(strings.SplitN(rest, "-", 2)[0])
		if err != nil || pid == os.Getpid() {
			continue
		}
		if _, err := os.Stat(filepath.Join("/proc", strconv.Itoa(pid))); err == nil {
			continue
		}
		p := filepath.Join(dir, e.Name())
		if strings.HasPrefix(dir, "/sys/") {
			_ = os.Remove(p) // a cgroup: rmdir, which fails while a process is in it
		} else {
			_ = os.RemoveAll(p)
		}
	}
}
