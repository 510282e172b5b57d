package e2e

import (
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"unicode/utf8"
)

// TestWordsPointTheRightWay runs the messages an outside trial found
// misleading through the real binary: each case's output must say what
// happened, must not say what the trial saw, and keep every line within
// 100 columns.
func TestWordsPointTheRightWay(t *testing.T) {
	mute := muteListener(t) // accepts, then says nothing: no TLS handshake answered
	redirect := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, port, _ := net.SplitHostPort(r.Host)
		http.Redirect(w, r, "http://localhost:"+port+"/ok", http.StatusFound)
	}))
	t.Cleanup(redirect.Close)
	long := strings.Repeat("x", 2<<20) + "END" // longer than the default max_body (1 MiB)
	big := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, long) }))
	t.Cleanup(big.Close)
	dead := refusedURL(t) // ends in "/"
	cases := []struct {
		name        string
		args        func(dir string) []string
		code        int
		want, never []string
		json        string // in summary.json
	}{
		{"a redirect's sample keeps its host and its fix", func(string) []string {
			return []string{"run", redirect.URL + "/xhost", "--vus", "1", "--duration", "1s"}
		}, 0, []string{"redirect to localhost:", "add it to allow_hosts"}, []string{"...", "na..."},
			"refused: the test does not name that host; add it to allow_hosts"},
		{"a TLS handshake nobody answered is a timeout", func(string) []string {
			return []string{"run", "https://" + mute + "/x", "--vus", "1", "--duration", "1s", "--timeout", "500ms"}
		}, 0, []string{"timed out in the TLS handshake", "never answered the handshake"}, []string{"certificate, name or protocol"}, ""},
		{"a body check failing on bodies cut at max_body names max_body", func(dir string) []string {
			test := "base_url: " + big.URL + "\nscenarios:\n  s:\n    iterations: 3\n    vus: 1\n    flow:\n      - get: /x\n        check:\n          - body_contains: END\n"
			if err := os.WriteFile(filepath.Join(dir, "t.yaml"), []byte(test), 0o600); err != nil {
				t.Fatal(err)
			}
			return []string{"run", "t.yaml"}
		}, 0, []string{`Check failed: ‘body contains "END"’`, "longer than max_body", "raise max_body"},
			[]string{"race", `"body contains "END""`, "CRITICAL  Check failed"}, ""},
		{"no-data reasons say why; an hour is a duration", func(string) []string {
			return []string{"run", dead + "x", "--vus", "1", "--duration", "1s", "--threshold", "http_req_tls_handshaking: avg<100ms",
				"--threshold", "scheduler_lag: p(99)<10ms", "--threshold", "p(95)<1h"}
		}, 99, []string{"avg<100ms no data: no TLS handshake (plain http)", "p(99)<10ms no data: measured only in the open model (arrival-rate)",
			"p(95)<1h no completed request"}, []string{"unknown time unit"}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			args := append(tc.args(dir), "--no-dashboard", "--quiet", "--results", "results", "--summary-json", "s.json")
			r := loadlens(t, dir, args...)
			out := r.stdout + r.stderr
			if r.code != tc.code {
				t.Fatalf("exit %d, want %d\n%s", r.code, tc.code, out)
			}
			flat := strings.Join(strings.Fields(out), " ") // wrapped lines joined
			for _, w := range tc.want {
				if !strings.Contains(flat, w) {
					t.Errorf("the output lacks %q:\n%s", w, out)
				}
			}
			for _, n := range tc.never {
				if strings.Contains(flat, n) {
					t.Errorf("the output says %q:\n%s", n, out)
				}
			}
			for _, l := range strings.Split(out, "\n") {
				if n := utf8.RuneCountInString(l); n > 100 {
					t.Errorf("a line of %d columns:\n%s", n, l)
				}
			}
			if tc.json != "" {
				b, err := os.ReadFile(filepath.Join(dir, "s.json"))
				if err != nil || !strings.Contains(string(b), tc.json) {
					t.Errorf("summary.json lacks the whole message %q (%v)", tc.json, err)
				}
			}
		})
	}
}

// TestBodyFileOfTenMegabytes sends a 10 MB --body-file (once refused as a
// "38.1 MiB test file") and holds loadlens's request count to the bytes the
// target itself received; a file over the limit is refused naming the flag
// and its size.
func TestBodyFileOfTenMegabytes(t *testing.T) {
	const size = 10_000_000
	var whole, partial, bytes atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, _ := io.Copy(io.Discard, r.Body)
		bytes.Add(n)
		if n == size {
			whole.Add(1)
		} else {
			partial.Add(1)
		}
	}))
	t.Cleanup(srv.Close)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "big.body"), make([]byte, size), 0o600); err != nil { // NUL bytes: 40 MB once quoted
		t.Fatal(err)
	}
	huge, err := os.Create(filepath.Join(dir, "huge.body"))
	if err != nil {
		t.Fatal(err)
	}
	if err := huge.Truncate(70 << 20); err != nil { // sparse: nothing written
		t.Fatal(err)
	}
	huge.Close()
	cases := []struct {
		name string
		file string
		code int
		want string
	}{
		{"10 MB is sent whole", "big.body", 0, ""},
		{"70 MiB is refused, naming the flag and the size", "huge.body", 2, "--body-file: huge.body is 70.0 MiB; a body file may be at most 64 MiB"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			whole.Store(0)
			partial.Store(0)
			bytes.Store(0)
			r := loadlens(t, dir, "run", srv.URL+"/up", "--method", "POST", "--body-file", tc.file, "--vus", "1", "--duration", "1s",
				"--no-dashboard", "--quiet", "--results", "results", "--summary-json", "s.json")
			if r.code != tc.code {
				t.Fatalf("exit %d, want %d\n%s%s", r.code, tc.code, r.stdout, r.stderr)
			}
			if tc.want != "" {
				if got := strings.TrimSpace(r.stderr); got != tc.want {
					t.Errorf("stderr %q, want %q", got, tc.want)
				}
				if whole.Load()+partial.Load() != 0 {
					t.Errorf("the target received %d requests from a refused run", whole.Load()+partial.Load())
				}
				return
			}
			var s struct {
				Metrics struct {
					Reqs struct{ Count int64 } `json:"http_reqs"`
					Sent struct{ Count int64 } `json:"data_sent"`
				} `json:"metrics"`
			}
			b, err := os.ReadFile(filepath.Join(dir, "s.json"))
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(b, &s); err != nil {
				t.Fatal(err)
			}
			n := whole.Load()
			if n == 0 || partial.Load() != 0 || bytes.Load() != n*size {
				t.Fatalf("the target received %d whole bodies, %d partial ones, %d bytes", n, partial.Load(), bytes.Load())
			}
			if s.Metrics.Reqs.Count != n || s.Metrics.Sent.Count < n*size {
				t.Errorf("summary.json: %d requests, %d bytes sent; the target received %d bodies of %d bytes",
					s.Metrics.Reqs.Count, s.Metrics.Sent.Count, n, size)
			}
		})
	}
}

// muteListener accepts connections on 127.0.0.1 and never writes to them;
// it returns its address.
func muteListener(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var conns []net.Conn
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		<-done
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	})
	return ln.Addr().String()
}
