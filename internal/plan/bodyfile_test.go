package plan

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestURLBodyFile pins --body-file: a large or binary file is named by the
// rendered test (body_file:), not copied into it, and a refusal names the
// flag and the file's real size.
func TestURLBodyFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, b, 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	zeros := write("zeros.body", make([]byte, 10_000_000)) // quoted, 40 MB: the trial's "test file is 38.1 MiB"
	random := make([]byte, 1<<20)
	rng := rand.NewChaCha8([32]byte{1})
	_, _ = rng.Read(random)
	binary := write("random.body", random)
	empty := write("empty.body", nil)
	huge := filepath.Join(dir, "huge.body")
	f, err := os.Create(huge)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(70 << 20); err != nil { // sparse: no 70 MiB written
		t.Fatal(err)
	}
	f.Close()
	tests := []struct {
		name    string
		o       URLOptions
		inline  bool // TestFile, as a distributed run renders it
		method  string
		want    []byte // the body sent
		wantErr string
	}{
		{"10 MB of NUL bytes", URLOptions{URL: "http://h/up", BodyFile: zeros}, false, "POST", make([]byte, 10_000_000), ""},
		{"binary bytes", URLOptions{URL: "http://h/up", BodyFile: binary}, false, "POST", random, ""},
		{"an empty file is no body", URLOptions{URL: "http://h/up", BodyFile: empty}, false, "GET", nil, ""},
		{"over the limit", URLOptions{URL: "http://h/up", BodyFile: huge}, false, "", nil,
			"--body-file: " + huge + " is 70.0 MiB; a body file may be at most 64 MiB"},
		{"distributed: too large to send inside the test", URLOptions{URL: "http://h/up", BodyFile: zeros}, true, "", nil,
			"--body-file: " + zeros + " is 9.5 MiB; a distributed run sends it inside the test: at most 9.9 MiB of UTF-8 text"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.inline {
				_, err := tt.o.TestFile()
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("TestFile error %v, want %q", err, tt.wantErr)
				}
				return
			}
			p, err := FromURL(tt.o)
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("FromURL error %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("FromURL: %v", err)
			}
			r := req(t, p, 0, 0)
			if got := []byte(render(r.Body)); !bytes.Equal(got, tt.want) || r.Method != tt.method {
				t.Errorf("%s with a body of %d bytes, want %s with the file's %d", r.Method, len(got), tt.method, len(tt.want))
			}
			if len(tt.want) == 0 {
				if r.Body != nil {
					t.Error("an empty file gave a body")
				}
				return
			}
			if len(p.Source) > 4<<10 || !strings.Contains(string(p.Source), "body_file: ") {
				t.Errorf("the rendered test (%d bytes) should name the file, not hold it:\n%.500s", len(p.Source), p.Source)
			}
		})
	}
}

// TestBodyFileKey pins a test file's body_file: resolved beside the test,
// a template when it is text, and errors at the key; a named pipe (which
// once held validate without a word) or a device is refused from a Stat,
// as data files are.
func TestBodyFileKey(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(os.DevNull, filepath.Join(dir, "nulllink")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "order.json"), []byte(`{"vu": {{ vu }}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "bad.txt"), []byte(`{{ nope }}`), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, file, want, wantErr string
	}{
		{"text is a template", "order.json", `{"vu": 7}`, ""},
		{"missing file", "none.json", "", "t.yaml:7:20: scenarios.s.flow[0].body_file: cannot read body file none.json: no such file or directory"},
		{"bad template", "bad.txt", "", "t.yaml:7:20: scenarios.s.flow[0].body_file: bad.txt: "},
		{"a named pipe", "fifo", "", "t.yaml:7:20: scenarios.s.flow[0].body_file: cannot read body file fifo: not a regular file (a named pipe)"},
		{"a device", "/dev/zero", "", "t.yaml:7:20: scenarios.s.flow[0].body_file: cannot read body file /dev/zero: not a regular file (a device)"},
		{"a link to a device", "nulllink", "", "t.yaml:7:20: scenarios.s.flow[0].body_file: cannot read body file nulllink: not a regular file (a device)"},
		{"a directory", ".", "", "t.yaml:7:20: scenarios.s.flow[0].body_file: cannot read body file .: not a regular file (a directory)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "base_url: http://h\nscenarios:\n  s:\n    iterations: 1\n    flow:\n      - post: /o\n        body_file: " + tt.file + "\n"
			var p *Plan
			var err error
			done := make(chan struct{})
			go func() { p, err = Parse(filepath.Join(dir, "t.yaml"), []byte(src), nil); close(done) }()
			select {
			case <-done:
			case <-time.After(10 * time.Second): // a bound, not a synchronisation: a FIFO once waited forever
				t.Fatal("Parse did not return")
			}
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := render(req(t, p, 0, 0).Body); got != tt.want {
				t.Errorf("body %q, want %q", got, tt.want)
			}
		})
	}
}
