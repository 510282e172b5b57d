package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/loadlens/loadlens/internal/app"
)

func TestBadInputIsOneLineAndExit2(t *testing.T) {
	dir := t.TempDir()
	test := filepath.Join(dir, "t.yaml")
	huge := filepath.Join(dir, "huge.yaml")
	for path, src := range map[string]string{
		test: "base_url: http://127.0.0.1:1\nscenarios:\n  s:\n    vus: 1\n    duration: 1s\n    flow: [get: /x]\n",
		huge: "base_url: http://127.0.0.1:1\nscenarios:\n  s:\n    vus: 100000000\n    duration: 1s\n    flow: [get: /x]\n",
	} {
		if err := os.WriteFile(path, []byte(src), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	const u = "http://127.0.0.1:1/x"
	tests := []struct {
		name string
		args []string
		want string // a regexp matching the whole line
	}{
		{"rate 0", []string{"run", u, "--rate", "0"}, `^--rate: must be above 0 iterations per second, got 0 \(leave --rate out to run --vus\)$`},
		{"vus 0", []string{"run", u, "--vus", "0"}, `^--vus: must be at least 1 VU, got 0$`},
		{"duration 0", []string{"run", u, "--duration", "0"}, `^--duration: must be above 0, got 0 \(use 30s, 5m, ...\)$`},
		{"max-vus 0", []string{"run", u, "--rate", "5", "--max-vus", "0"}, `^--max-vus: must be at least 1, got 0 \(leave it out for the default\)$`},
		{"timeout 0", []string{"run", u, "--timeout", "0s"}, `^--timeout: must be above 0, got 0 \(leave it out for the default 60s\)$`},
		{"-e without = in URL mode", []string{"run", u, "-e", "s3cretNOEQUALS"}, `^loadlens: -e wants KEY=VALUE, got text without "=" or with an empty KEY \(not shown: it may be a secret\)$`},
		{"-e without = with a file", []string{"run", test, "-e", "s3cretNOEQUALS"}, `^loadlens: -e wants KEY=VALUE`},
		{"-e without = in validate", []string{"validate", test, "-e", "=v"}, `^loadlens: -e wants KEY=VALUE`},
		{"-e without = in capacity", []string{"capacity", test, "-e", "X"}, `^loadlens: -e wants KEY=VALUE`},
		{"no scheme", []string{"run", "127.0.0.1:8080/x"}, `^loadlens: "127.0.0.1:8080/x" is not a test file and not an http\(s\) URL; did you mean http://127.0.0.1:8080/x\?$`},
		{"ftp", []string{"run", "ftp://h/x"}, `^loadlens: "ftp://h/x" is not a test file and not an http\(s\) URL: loadlens sends HTTP, so use http:// or https://$`},
		{"missing test file", []string{"run", filepath.Join(dir, "nope.yaml")}, `nope.yaml: cannot read the test file: no such file or directory$`},
		{"control character", []string{"run", "http://h/a\tb"}, `^URL: the URL has a control character U\+0009 at byte 10; percent-encode it \(%09\)$`},
		{"negative redirects", []string{"run", u, "--max-redirects", "-1"}, `^--max-redirects: must not be negative, got -1 \(0 follows no redirect\)$`},
		{"bad size", []string{"run", u, "--max-body", "1XB"}, `^--max-body: bad size "1XB": write bytes, or a number with B, KB, MB, GB, KiB, MiB or GiB \(1MiB = 1048576 bytes\)$`},
		{"allow-host is a URL", []string{"run", u, "--allow-host", "http://a"}, `^--allow-host: bad host "http://a": it is a URL; write a host like api.example.com, or host:port like 127.0.0.1:8081$`},
		{"allow-host with a file", []string{"run", test, "--allow-host", "a"}, `^loadlens: --allow-host applies to URL mode; a test file sets this itself \(see docs/test-format.md\)$`},
		{"negative graceful stop", []string{"run", u, "--graceful-stop", "-1s"}, `^--graceful-stop: must not be negative, got -1s$`},
		{"too many VUs", []string{"run", u, "--vus", "100000000"}, `^--vus: 100,000,000 VUs (need about 3.0 TiB of memory|hold 100,000,000 connections)`},
		{"too high a rate", []string{"run", u, "--rate", "1e18"}, `^--rate: 1e\+18 iterations/s \(1 request each\) is more than this machine can send: one process sends at most about [0-9,]+ requests/s here`},
		{"too many VUs in a file", []string{"validate", huge}, `huge.yaml:4:10: scenarios.s.vus: 100,000,000 VUs `},
		{"too many VUs in a file run", []string{"run", huge}, `huge.yaml:4:10: scenarios.s.vus: 100,000,000 VUs `},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := main(tt.args...)
			if code != app.ExitBadInput {
				t.Fatalf("exit %d, want 2\nstdout: %s\nstderr: %s", code, stdout, stderr)
			}
			if strings.Count(stderr, "\n") != 1 || !regexp.MustCompile(tt.want).MatchString(strings.TrimSuffix(stderr, "\n")) {
				t.Fatalf("stderr %q, want one line matching %q", stderr, tt.want)
			}
			if strings.Contains(stderr, "s3cret") {
				t.Errorf("stderr shows the -e argument: %q", stderr)
			}
		})
	}
}

func TestHasLiteralSpace(t *testing.T) {
	for u, want := range map[string]bool{"http://h/a b": true, "http://h/{{ env.P }}": false, "http://h/{{ pick(\"a b\") }}/c d": true, "http://h/x": false} {
		if got := hasLiteralSpace(u); got != want {
			t.Errorf("hasLiteralSpace(%q) = %v, want %v", u, got, want)
		}
	}
}
