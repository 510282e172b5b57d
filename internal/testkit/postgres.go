//go:build unix

package testkit

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
)

// StartPostgres starts a throw-away PostgreSQL cluster on a free port of
// 127.0.0.1 and returns its DSN; the cluster is removed when the test ends.
// Under LOADLENS_CI=1 a missing PostgreSQL fails the test instead of
// skipping it.
func StartPostgres(t *testing.T) string {
	t.Helper()
	initdb := Need(t, "initdb", "/usr/lib/postgresql/*/bin/initdb")
	pgctl := filepath.Join(filepath.Dir(initdb), "pg_ctl")
	dir, err := os.MkdirTemp("", "loadlens-pg-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	data := filepath.Join(dir, "data")
	port := freePort(t)
	init := exec.Command(initdb, "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync")
	start := exec.Command(pgctl, "-D", data, "-l", filepath.Join(dir, "log"), "-w", "-t", "60",
		"-o", fmt.Sprintf("-p %d -k %s -c listen_addresses=127.0.0.1 -c fsync=off", port, dir), "start")
	stop := exec.Command(pgctl, "-D", data, "-m", "immediate", "-w", "stop")
	asServerUser(t, dir, init, start, stop)
	if out, err := init.CombinedOutput(); err != nil {
		t.Fatalf("initdb: %v\n%s", err, out)
	}
	if out, err := start.CombinedOutput(); err != nil {
		log, _ := os.ReadFile(filepath.Join(dir, "log"))
		t.Fatalf("pg_ctl start: %v\n%s\n%s", err, out, log)
	}
	t.Cleanup(func() {
		if out, err := stop.CombinedOutput(); err != nil {
			t.Errorf("pg_ctl stop: %v\n%s", err, out)
		}
	})
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", port)
}

// Need finds a server's binary on $PATH, else the newest match of the
// glob patterns also, or skips the test; under LOADLENS_CI=1 a missing
// binary fails it, so CI cannot pass by skipping.
func Need(t *testing.T, name string, also ...string) string {
	t.Helper()
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	for _, pattern := range also {
		if m, _ := filepath.Glob(pattern); len(m) > 0 {
			return m[len(m)-1]
		}
	}
	if os.Getenv("LOADLENS_CI") == "1" {
		t.Fatalf("%s is not installed, and LOADLENS_CI=1 needs it (see .ci/apt-packages)", name)
	}
	t.Skipf("%s is not installed", name)
	return ""
}

// freePort returns a port on 127.0.0.1 that was free a moment ago.
func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// asServerUser runs cmds as the postgres user when the test runs as root,
// since PostgreSQL refuses to run as root; dir is handed to that user.
func asServerUser(t *testing.T, dir string, cmds ...*exec.Cmd) {
	t.Helper()
	if os.Geteuid() != 0 {
		return
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		if u, err = user.Lookup("nobody"); err != nil {
			t.Fatalf("running as root and found neither a postgres nor a nobody user: %v", err)
		}
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	if err := os.Chown(dir, uid, gid); err != nil {
		t.Fatal(err)
	}
	for _, c := range cmds {
		c.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}}
	}
}
