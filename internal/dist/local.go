package dist

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// LocalAgents are agent processes of this binary on 127.0.0.1.
type LocalAgents struct {
	Addrs []string
	Token string
	procs []*exec.Cmd
	dir   string   // the agents' temporary directory (their TMPDIR), removed by Stop
	spawn *spawner // the thread they were forked from, which must outlive them
}

// localPrefix names the directory of one coordinator's local agents,
// followed by its process id, so that the next start can tell a dead
// coordinator's leftovers (removeStale).
const localPrefix = "loadlens-agents-of-"

// StartLocal starts n agents of the binary exe on 127.0.0.1, each on a port
// of its own choosing, sharing a fresh random token that no file and no
// command line holds (tokenSource). They die with this process (on Linux a
// parent-death signal), keep their temporary files in one directory that
// Stop removes, and a dead coordinator's directory is removed at the next
// start. ctx ending (the first Ctrl-C or SIGTERM) stops the starting: the
// agents started so far are stopped and the error says so. Stop ends them.
func StartLocal(ctx context.Context, exe string, n int, stderr io.Writer) (*LocalAgents, error) {
	removeStale(os.TempDir())
	dir, err := os.MkdirTemp("", localPrefix+strconv.Itoa(os.Getpid())+"-")
	if err != nil {
		return nil, err
	}
	raw := make([]byte, 32)
	_, _ = rand.Read(raw)
	l := &LocalAgents{Token: hex.EncodeToString(raw), dir: dir, spawn: newSpawner()}
	for i := range n {
		if ctx.Err() != nil {
			l.Stop()
			return nil, fmt.Errorf("local agents: stopped while starting them (%d of %d had started): %w", i, n, context.Cause(ctx))
		}
		addr, err := l.startOne(ctx, exe, i, stderr)
		if err != nil {
			l.Stop()
			if ctx.Err() != nil {
				return nil, fmt.Errorf("local agents: stopped while starting them (%d of %d had started): %w", i, n, context.Cause(ctx))
			}
			return nil, fmt.Errorf("local agent %d: %w", i+1, err)
		}
		l.Addrs = append(l.Addrs, addr)
	}
	return l, nil
}

// startOne starts agent i and returns where it listens.
func (l *LocalAgents) startOne(ctx context.Context, exe string, i int, stderr io.Writer) (string, error) {
	tokenFile, stdin, err := tokenSource(l.dir, l.Token)
	if err != nil {
		return "", err
	}
	cmd := exec.Command(exe, "agent", "--listen", "127.0.0.1:0", "--token-file", tokenFile)
	cmd.Env = append(os.Environ(), fmt.Sprintf("LOADLENS_AGENT_INDEX=%d", i), "TMPDIR="+l.dir) // its job's files go where Stop removes them
	cmd.Stdin, cmd.Stderr = stdin, stderr
	ownGroup(cmd)
	out, err := cmd.StdoutPipe()
	if err != nil {
		return "", err
	}
	if err := l.spawn.start(cmd); err != nil {
		return "", err
	}
	l.procs = append(l.procs, cmd)
	addr, err := listenAddr(ctx, out)
	if err != nil {
		return "", err
	}
	go func() { _, _ = io.Copy(io.Discard, out) }() // the agent's news; it must not block on a full pipe
	return addr, nil
}

// listenAddr reads the agent's first line, "agent: listening on ADDR; …".
func listenAddr(ctx context.Context, out io.Reader) (string, error) {
	line := make(chan string, 1)
	go func() {
		s, _ := bufio.NewReader(out).ReadString('\n')
		line <- s
	}()
	wait := time.NewTimer(connectWait)
	defer wait.Stop()
	select {
	case s := <-line:
		rest, ok := strings.CutPrefix(s, "agent: listening on ")
		addr, _, ok2 := strings.Cut(rest, ";")
		if !ok || !ok2 {
			return "", fmt.Errorf("did not say where it listens (%q)", strings.TrimSpace(s))
		}
		return addr, nil
	case <-ctx.Done():
		return "", context.Cause(ctx)
	case <-wait.C:
		return "", fmt.Errorf("did not start listening within %s", connectWait)
	}
}

// Stop kills the agents, waits for them and removes their directory.
func (l *LocalAgents) Stop() {
	for _, c := range l.procs {
		_ = c.Process.Kill()
		_ = c.Wait()
	}
	l.procs = nil
	l.spawn.stop()
	_ = os.RemoveAll(l.dir)
}

// removeStale removes, from the temporary directory tmp, the directories of
// local agents whose coordinator no longer runs (killed with -9 while its
// agents ran, say): named for a process that is gone.
func removeStale(tmp string) {
	dirs, _ := filepath.Glob(filepath.Join(tmp, localPrefix+"*"))
	for _, d := range dirs {
		pid, _, _ := strings.Cut(strings.TrimPrefix(filepath.Base(d), localPrefix), "-")
		n, err := strconv.Atoi(pid)
		if err != nil || n <= 0 || n == os.Getpid() || processAlive(n) {
			continue
		}
		_ = os.RemoveAll(d) // another user's fails: not ours to remove
	}
}
