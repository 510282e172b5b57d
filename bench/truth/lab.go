package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"
)

// Layout says which CPU each side runs on. On 2 cores the generator side
// (loadlens, the harness's own client and exporter, node_exporter, the
// database and cache exporters, the mock) gets CPU 0 and the system under
// test (the service, PostgreSQL, Redis, nginx) CPU 1: a target that
// saturates its core never takes the generator's, and a hog put on one
// side starves that side alone. With 1 CPU nothing is pinned (-1).
type Layout struct {
	Gen, Target int
}

// layoutFor returns the layout for a host with n CPUs.
func layoutFor(n int) Layout {
	if n < 2 {
		return Layout{Gen: -1, Target: -1}
	}
	return Layout{Gen: 0, Target: 1}
}

// Service is a started server.
type Service struct {
	Proc  *Proc
	Addr  string // host:port
	Group *Group // its cgroup, when it has one
	GCLog string // a JVM's GC log, when it writes one
}

// URL is the service's http base URL.
func (s *Service) URL() string { return "http://" + s.Addr }

// Lab is everything one harness session starts and shares: the child
// processes, the cgroups, the cAdvisor-format exporter, the busy-host
// meter and the servers several cases use (started on first use).
type Lab struct {
	Root, Work string // the module's root; the session's scratch directory
	Procs      *Procs
	CG         *Cgroups
	Exp        *Exporter
	Meter      *HostMeter
	LL         *Loadlens
	Layout     Layout
	OTLP       string // host:port of loadlens's trace receiver in truthapp tests
	App        *Truthapp
	sink       *traceSink
	shared     map[string]*Service
	groups     []*Group
}

// NewLab prepares a session in work, its processes' logs in logs.
func NewLab(root, work, logs string, ll *Loadlens, ncpu int) (*Lab, error) {
	if err := os.MkdirAll(logs, 0o755); err != nil {
		return nil, err
	}
	exp, err := StartExporter()
	if err != nil {
		return nil, err
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	l := &Lab{Root: root, Work: work, Procs: NewProcs(logs), CG: NewCgroups(), Exp: exp, Meter: NewHostMeter(), LL: ll,
		Layout: layoutFor(ncpu), OTLP: "127.0.0.1:" + strconv.Itoa(port), shared: map[string]*Service{}}
	ll.Core = l.Layout.Gen
	l.sink = &traceSink{addr: l.OTLP}
	if err := l.sink.on(); err != nil {
		return nil, err
	}
	return l, pinSelf(l.Layout.Gen)
}

// Close stops every process and removes the cgroups.
func (l *Lab) Close() {
	l.Procs.StopAll()
	l.Exp.Close()
	l.sink.off()
	for _, g := range l.groups {
		_ = g.Remove()
	}
}

// CPUMode says how CPU limits and the containers' CPU are made.
func (l *Lab) CPUMode() string {
	if l.CG.OK() {
		return "cgroup v1 (cpu.cfs_quota_us, cpuacct.usage)"
	}
	return "taskset only (" + l.CG.Why + "): CPU limits are the pinned core, no throttling is measured"
}

// startIn starts s in a new container of deployment (its own cgroup with
// quota cores, 0 for none) and shows it to the exporter.
func (l *Lab) startIn(s Spec, deployment, container, role string, quota float64) (*Proc, *Group, error) {
	var g *Group
	if l.CG.OK() {
		var err error
		if g, err = l.CG.Make(deployment, container, role, quota); err != nil {
			return nil, nil, err
		}
		l.groups = append(l.groups, g)
		s.Group = g
	}
	p, err := l.Procs.Start(s)
	if err != nil {
		return nil, nil, err
	}
	c := &Container{Deployment: deployment, Name: container, Role: role, Pod: podName(deployment, p.Pid())}
	if g != nil {
		c.Pod, c.Quota, c.Read = g.Pod, quota, g.Read
	} else {
		c.Read = procTreeReader(p.Pid())
	}
	l.Exp.Set(c)
	return p, g, nil
}

// stop stops a per-run service and forgets its container.
func (l *Lab) stop(s *Service, deployment string) {
	if s == nil {
		return
	}
	l.Procs.Stop(s.Proc, 10*time.Second)
	if deployment != "" {
		l.Exp.Drop(deployment)
	}
	if s.Group != nil {
		_ = s.Group.Remove()
	}
}

// SetQuota changes a running container's CPU limit (an in-place resize).
func (l *Lab) SetQuota(s *Service, quota float64) error {
	if s.Group == nil {
		return nil
	}
	if err := s.Group.SetQuota(quota); err != nil {
		return err
	}
	l.Exp.Set(&Container{Deployment: s.Group.Deployment, Name: s.Group.Container, Role: s.Group.Role, Pod: s.Group.Pod,
		Quota: quota, Read: s.Group.Read})
	return nil
}

// dir makes a directory under the session's scratch directory.
func (l *Lab) dir(name string) (string, error) {
	d := filepath.Join(l.Work, name)
	return d, os.MkdirAll(d, 0o755)
}

// need finds a program, or says what to install.
func need(name string, alts ...string) (string, error) {
	for _, n := range append([]string{name}, alts...) {
		if p, err := lookPath(n); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s is not installed (see .ci/apt-packages)", name)
}

// sharedService starts a session-wide service once.
func (l *Lab) sharedService(ctx context.Context, name string, start func(context.Context) (*Service, error)) (*Service, error) {
	if s, ok := l.shared[name]; ok && !s.Proc.Exited() {
		return s, nil
	}
	s, err := start(ctx)
	if err != nil {
		if s != nil && s.Proc != nil {
			l.Procs.Stop(s.Proc, 5*time.Second) // started but not ready: the next case starts it afresh
		}
		return nil, err
	}
	l.shared[name] = s
	return s, nil
}
