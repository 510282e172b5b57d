package e2e

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestVersionComesFromTheBuild: `loadlens version` and `--version` print
// the version of the build, which every run records in summary.json: a
// release's, set at link time, or else what the go command recorded in the
// binary, read here independently with `go version -m`.
func TestVersionComesFromTheBuild(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	defer srv.Close()
	released := filepath.Join(t.TempDir(), "loadlens")
	build := exec.Command("go", "build", "-ldflags", "-X github.com/loadlens/loadlens/internal/app.release=v9.9.9-e2e", "-o", released, "../cmd/loadlens")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building a release: %v\n%s", err, out)
	}
	tests := []struct {
		name, binary string
		want         func(t *testing.T, v string) // judges the version printed
	}{
		{"a release", released, func(t *testing.T, v string) {
			if v != "v9.9.9-e2e" {
				t.Errorf("version %q, want the release set at link time, v9.9.9-e2e", v)
			}
		}},
		{"a build", binary, func(t *testing.T, v string) { checkRecordedVersion(t, v) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			line := stdout(t, dir, tt.binary, "version")
			if flag := stdout(t, dir, tt.binary, "--version"); flag != line {
				t.Errorf("--version prints %q, version %q", flag, line)
			}
			v, ok := strings.CutPrefix(strings.TrimSpace(line), "loadlens ")
			if !ok || v == "" || strings.ContainsAny(v, " \n") {
				t.Fatalf("version prints %q, want one line `loadlens VERSION`", line)
			}
			tt.want(t, v)
			stdout(t, dir, tt.binary, "run", srv.URL, "--duration", "1s", "--vus", "1", "--quiet", "--no-dashboard")
			b, err := os.ReadFile(filepath.Join(onlyRunDir(t, filepath.Join(dir, "results")), "summary.json"))
			if err != nil {
				t.Fatal(err)
			}
			var s struct {
				Loadlens struct{ Version string }
			}
			if err := json.Unmarshal(b, &s); err != nil || s.Loadlens.Version != v {
				t.Errorf("summary.json's loadlens.version %q (%v), want %q", s.Loadlens.Version, err, v)
			}
		})
	}
}

// checkRecordedVersion judges v against the build information `go version
// -m` reads from the binary: the module's version when it has one, else
// "devel", followed by the commit when one was recorded.
func checkRecordedVersion(t *testing.T, v string) {
	t.Helper()
	out, err := exec.Command("go", "version", "-m", binary).Output()
	if err != nil {
		t.Fatalf("go version -m: %v", err)
	}
	var mod, rev string
	for _, l := range strings.Split(string(out), "\n") {
		f := strings.Fields(l)
		switch {
		case len(f) >= 3 && f[0] == "mod":
			mod = f[2]
		case len(f) == 2 && f[0] == "build" && strings.HasPrefix(f[1], "vcs.revision="):
			rev = strings.TrimPrefix(f[1], "vcs.revision=")
		}
	}
	switch {
	case mod != "" && mod != "(devel)":
		if v != mod {
			t.Errorf("version %q, want the module's %q", v, mod)
		}
	case rev != "":
		if !strings.HasPrefix(v, "devel-"+rev[:12]) {
			t.Errorf("version %q, want devel- and the commit %s", v, rev[:12])
		}
	case v != "devel":
		t.Errorf("version %q, want devel: the build recorded neither a version nor a commit", v)
	}
}

// stdout runs a loadlens binary in dir and returns what it printed,
// failing the test when it fails.
func stdout(t *testing.T, dir, bin string, args ...string) string {
	t.Helper()
	r, _ := runIn(t, dir, time.Minute, append([]string{bin}, args...)...)
	if r.code != 0 {
		t.Fatalf("loadlens %v exits %d:\n%s%s", args, r.code, r.stdout, r.stderr)
	}
	return r.stdout
}
