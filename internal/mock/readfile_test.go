package mock

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestReadFileRefusesBeforeReading: a file larger than the limit, or one
// that is no regular file (/dev/zero), is refused from its Stat, without
// reading up to the limit first (a 300 MB body file took 625 MB and 2 s
// before `mock --check` refused it).
func TestReadFileRefusesBeforeReading(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.bin")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(100 << 20); err != nil { // sparse: no disk
		t.Fatal(err)
	}
	f.Close()
	small := filepath.Join(dir, "small.json")
	if err := os.WriteFile(small, []byte(`{"ok": true}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, path, err string
	}{
		{"larger than the limit", big, "larger than 8 MiB"},
		{"a device", os.DevNull, "not a regular file"},
		{"a small file", small, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			b, err := readFile(tc.path, 8<<20)
			runtime.ReadMemStats(&after)
			if tc.err == "" {
				if err != nil || string(b) != `{"ok": true}` {
					t.Fatalf("read %q, %v", b, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("error %v, want %q", err, tc.err)
			}
			if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
				t.Errorf("allocated %d bytes to refuse it", grew)
			}
		})
	}
}

// TestTLSFilesRefusedBeforeReading: a tls.cert or tls.key that is a named
// pipe or a device is refused, naming the key and the file, without
// waiting for a writer (tls.LoadX509KeyPair opened it and waited) or
// reading without end.
func TestTLSFilesRefusedBeforeReading(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "cert.pem")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	regular := filepath.Join(dir, "regular.pem") // read before the key is
	if err := os.WriteFile(regular, []byte("not PEM"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		tls  TLSConfig
		want string
	}{
		{"a named pipe as the certificate", TLSConfig{CertFile: fifo, KeyFile: fifo}, "mock: tls.cert " + fifo + ": not a regular file (a named pipe)"},
		{"a device as the key", TLSConfig{CertFile: regular, KeyFile: "/dev/zero"}, "mock: tls.key /dev/zero: not a regular file (a device)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			done := make(chan error, 1)
			go func() { _, err := loadOrGenerate(&tc.tls); done <- err }()
			select {
			case err := <-done:
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("error %v, want %q", err, tc.want)
				}
			case <-time.After(10 * time.Second): // a bound, not a synchronisation
				t.Fatal("loadOrGenerate did not return")
			}
		})
	}
}
