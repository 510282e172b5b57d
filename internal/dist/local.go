package dist

import (
	"bufio"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// LocalAgents are agent processes of this binary on 127.0.0.1.
type LocalAgents struct {
	Addrs []string
	Token string
	procs []*exec.Cmd
	dir   string
}

// StartLocal starts n agents of the binary exe on 127.0.0.1, each on a
// port of its own choosing, sharing a fresh random token kept in a file
// only this user can read (not on a command line, which others can see).
// Stop ends them.
func StartLocal(exe string, n int, stderr io.Writer) (*LocalAgents, error) {
	dir, err := os.MkdirTemp("", "loadlens-local-agents-")
	if err != nil {
		return nil, err
	}
	raw := make([]byte, 32)
	_, _ = rand.Read(raw)
	l := &LocalAgents{Token: hex.EncodeToString(raw), dir: dir}
	tokenFile := filepath.Join(dir, "token")
	if err := os.WriteFile(tokenFile, []byte(l.Token), 0o600); err != nil {
		l.Stop()
		return nil, err
	}
	for i := range n {
		cmd := exec.Command(exe, "agent", "--listen", "127.0.0.1:0", "--token-file", tokenFile)
		cmd.Env = append(os.Environ(), fmt.Sprintf("LOADLENS_AGENT_INDEX=%d", i))
		cmd.Stderr = stderr
		ownGroup(cmd)
		out, err := cmd.StdoutPipe()
		if err != nil {
			l.Stop()
			return nil, err
		}
		if err := cmd.Start(); err != nil {
			l.Stop()
			return nil, fmt.Errorf("local agent %d: %w", i+1, err)
		}
		l.procs = append(l.procs, cmd)
		addr, err := listenAddr(out)
		if err != nil {
			l.Stop()
			return nil, fmt.Errorf("local agent %d: %w", i+1, err)
		}
		l.Addrs = append(l.Addrs, addr)
		go func() { _, _ = io.Copy(io.Discard, out) }() // the agent's news; it must not block on a full pipe
	}
	return l, nil
}

// listenAddr reads the agent's first line, "agent: listening on ADDR; …".
func listenAddr(out io.Reader) (string, error) {
	line := make(chan string, 1)
	go func() {
		s, _ := bufio.NewReader(out).ReadString('\n')
		line <- s
	}()
	select {
	case s := <-line:
		rest, ok := strings.CutPrefix(s, "agent: listening on ")
		addr, _, ok2 := strings.Cut(rest, ";")
		if !ok || !ok2 {
			return "", fmt.Errorf("did not say where it listens (%q)", strings.TrimSpace(s))
		}
		return addr, nil
	case <-time.After(connectWait):
		return "", fmt.Errorf("did not start listening within %s", connectWait)
	}
}

// Stop kills the agents, waits for them and removes the token file.
func (l *LocalAgents) Stop() {
	for _, c := range l.procs {
		_ = c.Process.Kill()
		_ = c.Wait()
	}
	l.procs = nil
	_ = os.RemoveAll(l.dir)
}
