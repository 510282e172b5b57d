package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// Spec is how to start one child process.
type Spec struct {
	Name  string   // names the process in messages and its log file
	Argv  []string // the command and its arguments
	Env   []string // added to the harness's environment
	Dir   string   // working directory; "" for the harness's
	Core  int      // the CPU to pin it to with taskset; -1 for every CPU
	Group *Group   // the cgroup it starts in (before exec); nil for none
	User  string   // run as this user (PostgreSQL refuses root); "" for the harness's
}

// Proc is a started child process: the leader of its own process group.
type Proc struct {
	Name string
	Log  string // its stdout and stderr
	cmd  *exec.Cmd
	done chan struct{}
	err  error
}

// Procs starts children and stops every one still running on every path:
// each leads its own process group (Setpgid), which Stop signals whole, and
// gets SIGKILL if the harness dies first (Pdeathsig).
type Procs struct {
	logDir string
	mu     sync.Mutex
	live   []*Proc
}

// NewProcs keeps the children's logs in logDir.
func NewProcs(logDir string) *Procs { return &Procs{logDir: logDir} }

// Start starts s; its output goes to a log file named after it.
func (ps *Procs) Start(s Spec) (*Proc, error) {
	argv := s.Argv
	if ts, err := exec.LookPath("taskset"); err == nil { // the harness itself is pinned: say where the child goes
		argv = append([]string{ts, "-c", cpuList(s.Core)}, argv...)
	}
	if s.Group != nil {
		// the shell joins the cgroup, then execs: the process is in it from its first instruction
		argv = append([]string{"/bin/sh", "-c", s.Group.JoinScript() + `exec "$@"`, "sh"}, argv...)
	}
	log := filepath.Join(ps.logDir, fmt.Sprintf("%s-%d.log", s.Name, time.Now().UnixNano()))
	f, err := os.Create(log)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), s.Env...)
	cmd.Dir = s.Dir
	cmd.Stdout, cmd.Stderr = f, f
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if s.User != "" && os.Geteuid() == 0 {
		cred, err := credential(s.User)
		if err != nil {
			return nil, err
		}
		cmd.SysProcAttr.Credential = cred // Go sets Pdeathsig after the switch, so it survives it
		if s.Group != nil {
			if err := s.Group.Chown(int(cred.Uid), int(cred.Gid)); err != nil {
				return nil, err
			}
		}
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", s.Name, err)
	}
	p := &Proc{Name: s.Name, Log: log, cmd: cmd, done: make(chan struct{})}
	go func() { p.err = cmd.Wait(); close(p.done) }()
	ps.mu.Lock()
	ps.live = append(ps.live, p)
	ps.mu.Unlock()
	return p, nil
}

// credential returns the uid and gid of name.
func credential(name string) (*syscall.Credential, error) {
	u, err := user.Lookup(name)
	if err != nil {
		return nil, fmt.Errorf("user %s: %w", name, err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, nil
}

// Pid is the process's id (its group's id too).
func (p *Proc) Pid() int { return p.cmd.Process.Pid }

// Exited reports whether the process has ended.
func (p *Proc) Exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// Tail returns the last n bytes of the process's log, for an error message.
func (p *Proc) Tail(n int) string {
	b, _ := os.ReadFile(p.Log)
	if len(b) > n {
		b = b[len(b)-n:]
	}
	return strings.TrimSpace(string(b))
}

// Stop sends SIGTERM to the process group, then SIGKILL after grace.
func (p *Proc) Stop(grace time.Duration) {
	if p.Exited() {
		return // its group id may be reused by now: signal nothing
	}
	_ = syscall.Kill(-p.Pid(), syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(grace):
	}
	_ = syscall.Kill(-p.Pid(), syscall.SIGKILL)
	select {
	case <-p.done:
	case <-time.After(5 * time.Second):
	}
}

// Stop stops p and forgets it.
func (ps *Procs) Stop(p *Proc, grace time.Duration) {
	p.Stop(grace)
	ps.mu.Lock()
	defer ps.mu.Unlock()
	for i, q := range ps.live {
		if q == p {
			ps.live = append(ps.live[:i], ps.live[i+1:]...)
			break
		}
	}
}

// StopAll stops every child still known, the newest first (a server
// before the database it uses).
func (ps *Procs) StopAll() {
	ps.mu.Lock()
	live := ps.live
	ps.live = nil
	ps.mu.Unlock()
	for i := len(live) - 1; i >= 0; i-- {
		live[i].Stop(3 * time.Second)
	}
}

// errExited says a process ended while the harness waited for it.
var errExited = errors.New("exited")

// WaitHTTP polls url until it answers 200, the process exits, or timeout.
func (p *Proc) WaitHTTP(ctx context.Context, url string, timeout time.Duration) error {
	c := &http.Client{Timeout: 2 * time.Second}
	return p.waitFor(ctx, timeout, func() bool {
		r, err := c.Get(url)
		if err != nil {
			return false
		}
		r.Body.Close()
		return r.StatusCode == http.StatusOK
	}, url)
}

// WaitTCP polls addr until it accepts a connection, the process exits, or timeout.
func (p *Proc) WaitTCP(ctx context.Context, addr string, timeout time.Duration) error {
	return p.waitFor(ctx, timeout, func() bool {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err != nil {
			return false
		}
		c.Close()
		return true
	}, addr)
}

func (p *Proc) waitFor(ctx context.Context, timeout time.Duration, ok func() bool, what string) error {
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		if ok() {
			return nil
		}
		if p.Exited() {
			return fmt.Errorf("%s %w before %s answered: %v\n%s", p.Name, errExited, what, p.err, p.Tail(2000))
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
	return fmt.Errorf("%s: %s did not answer within %s\n%s", p.Name, what, timeout, p.Tail(2000))
}

// freePort returns a TCP port of 127.0.0.1 that was free a moment ago.
func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// cpuList is taskset's list for core: that CPU, or every CPU for -1.
func cpuList(core int) string {
	if core >= 0 {
		return strconv.Itoa(core)
	}
	return fmt.Sprintf("0-%d", runtime.NumCPU()-1)
}

// pinSelf pins every thread of the harness to core (threads started
// later inherit it): its own client and exporter are generator-side.
func pinSelf(core int) error {
	if core < 0 {
		return nil
	}
	var set unix.CPUSet
	set.Set(core)
	tids, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return err
	}
	for _, t := range tids {
		tid, err := strconv.Atoi(t.Name())
		if err != nil {
			continue
		}
		if err := unix.SchedSetaffinity(tid, &set); err != nil && !errors.Is(err, unix.ESRCH) {
			return fmt.Errorf("pinning the harness to CPU %d: %w", core, err)
		}
	}
	return nil
}
