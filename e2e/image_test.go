package e2e

import (
	"context"
	"debug/elf"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/testkit"
)

// No container engine or registry is reachable where the tests run, so the
// image itself is never built here. What the Dockerfile promises is tested
// instead: its own build command makes a static binary, and that binary,
// alone in an empty root as the image's user, serves a coordinator's run as
// an agent pod does.

// dockerfile is what the tests read from the repository's Dockerfile.
type dockerfile struct {
	build      string   // the build stage's `RUN CGO_ENABLED=0 go build …` command
	out        string   // where that command writes the binary
	copyTo     string   // where the final stage puts it
	user       string   // the final stage's USER, "uid:gid"
	workdir    string   // the final stage's WORKDIR
	entrypoint []string // the final stage's ENTRYPOINT
}

var (
	buildLine = regexp.MustCompile(`(?m)^RUN (CGO_ENABLED=0 go build .*-o (\S+) \./cmd/loadlens)$`)
	copyLine  = regexp.MustCompile(`(?m)^COPY --from=build (\S+) (\S+)$`)
	userLine  = regexp.MustCompile(`(?m)^USER (\d+):(\d+)$`)
	workLine  = regexp.MustCompile(`(?m)^WORKDIR (\S+)$`)
	entryLine = regexp.MustCompile(`(?m)^ENTRYPOINT \[(.*)\]$`)
)

// readDockerfile parses the few instructions the image's promise rests on.
func readDockerfile(t *testing.T) dockerfile {
	t.Helper()
	b, err := os.ReadFile("../Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	stages := strings.Count(s, "\nFROM ") + map[bool]int{true: 1}[strings.HasPrefix(s, "FROM ")]
	if stages != 2 {
		t.Fatalf("Dockerfile: want a build stage and a final stage, found %d FROM lines", stages)
	}
	final := s[strings.LastIndex(s, "\nFROM "):]
	var d dockerfile
	if m := buildLine.FindStringSubmatch(s); m != nil {
		d.build, d.out = m[1], m[2]
	}
	if m := copyLine.FindStringSubmatch(final); m != nil && m[1] == d.out {
		d.copyTo = m[2]
	}
	if m := userLine.FindStringSubmatch(final); m != nil {
		d.user = m[1] + ":" + m[2]
	}
	if ws := workLine.FindAllStringSubmatch(final, -1); len(ws) > 0 {
		d.workdir = ws[len(ws)-1][1]
	}
	if m := entryLine.FindStringSubmatch(final); m != nil {
		for _, f := range strings.Split(m[1], ",") {
			d.entrypoint = append(d.entrypoint, strings.Trim(strings.TrimSpace(f), `"`))
		}
	}
	if d.build == "" || d.copyTo == "" || d.user == "" || d.workdir == "" || len(d.entrypoint) == 0 {
		t.Fatalf("Dockerfile: could not read its build command, COPY of %q, USER, WORKDIR and ENTRYPOINT: %+v", d.out, d)
	}
	return d
}

func TestDockerfileNamesANonRootUserAndItsBinary(t *testing.T) {
	d := readDockerfile(t)
	if strings.HasPrefix(d.user, "0:") || strings.HasSuffix(d.user, ":0") {
		t.Errorf("USER %s: the agents' pods require a non-root user", d.user)
	}
	if d.entrypoint[0] != d.copyTo {
		t.Errorf("ENTRYPOINT runs %q but the binary is copied to %q", d.entrypoint[0], d.copyTo)
	}
	for _, flag := range []string{"-trimpath"} {
		if !strings.Contains(d.build, flag) {
			t.Errorf("build command %q lacks %s", d.build, flag)
		}
	}
}

func TestImageBinaryServesARunAloneAsTheImageUser(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to chroot into an empty root and switch to the image's user")
	}
	d := readDockerfile(t)
	root := t.TempDir()
	if err := os.Chmod(root, 0o755); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(root, d.copyTo)
	if err := os.MkdirAll(filepath.Dir(bin), 0o755); err != nil {
		t.Fatal(err)
	}
	// The Dockerfile's own command, writing where the final stage copies from.
	cmdline := strings.Replace(d.build, "-o "+d.out, "-o "+bin, 1)
	build := exec.Command("sh", "-c", cmdline)
	build.Dir = ".."
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", cmdline, err, out)
	}
	f, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			t.Fatalf("%s asks for a dynamic loader: distroless/static has no libc", d.build)
		}
	}
	f.Close()

	var uid, gid uint32
	fmt.Sscanf(d.user, "%d:%d", &uid, &gid)
	home := filepath.Join(root, d.workdir)
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(home, int(uid), int(gid)); err != nil {
		t.Fatal(err)
	}
	// The pod's only writable place is /tmp, an emptyDir (internal/k8s/objects.go).
	tmp := filepath.Join(root, "tmp")
	if err := os.Mkdir(tmp, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(tmp, 0o1777); err != nil {
		t.Fatal(err)
	}
	// The token arrives as a mounted Secret: a file the user can read.
	if err := os.WriteFile(filepath.Join(root, "token"), []byte("image-token-0123456789abcdef\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	agent := exec.CommandContext(ctx, d.entrypoint[0], append(d.entrypoint[1:], "agent", "--once", "--token-file", "/token")...)
	agent.Dir = d.workdir
	agent.Env = []string{"LOADLENS_AGENT_LISTEN=127.0.0.1:0", "LOADLENS_AGENT_INDEX=0"} // a pod's environment, nothing of ours
	agent.SysProcAttr = &syscall.SysProcAttr{Chroot: root, Credential: &syscall.Credential{Uid: uid, Gid: gid}}
	var agentErr testkit.Buffer
	addr, err := testkit.StartAgent(agent, &agentErr)
	done := make(chan error, 1)
	if agent.Process != nil {
		go func() { done <- agent.Wait() }()
		t.Cleanup(func() {
			agent.Process.Kill()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
			}
		})
	}
	if err != nil {
		t.Fatalf("the agent in the empty root: %v", err)
	}

	url, count := countingTarget(t, 0)
	dir := t.TempDir()
	test := fmt.Sprintf("name: image\nbase_url: %s\nscenarios:\n  open:\n    rate: 20\n    duration: 2s\n    flow:\n      - get: /img\n", url)
	if err := os.WriteFile(filepath.Join(dir, "t.yaml"), []byte(test), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "token"), []byte("image-token-0123456789abcdef\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	r := loadlens(t, dir, "run", "t.yaml", "--agents", addr, "--token-file", "token", "--results", "results", "--quiet")
	if r.code != 0 {
		t.Fatalf("coordinator exit %d\n%s\n%s\nagent: %s", r.code, r.stdout, r.stderr, agentErr.String())
	}
	s := summaryOf(t, onlyRunDir(t, filepath.Join(dir, "results")))
	if got := summaryMetric(s, "http_reqs", "count"); got != 40 || count.Load() != 40 {
		t.Fatalf("summary counts %v requests, the target %d: want the schedule's 40", got, count.Load())
	}
	// --once: the pod's process ends after its run, as a Job's pod must.
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("agent --once exited with %v: %s", err, agentErr.String())
		}
	case <-time.After(30 * time.Second):
		t.Error("agent --once still running 30s after its run")
	}
}
