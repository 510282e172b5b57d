package proc

import (
	"fmt"
	"maps"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// tcpHead is /proc/net/tcp's first line.
const tcpHead = "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n"

// writeFDs gives process pid of the /proc tree at root descriptors
// linking to targets.
func writeFDs(t testing.TB, root string, pid int, targets ...string) {
	t.Helper()
	dir := filepath.Join(root, strconv.Itoa(pid), "fd")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for i, target := range targets {
		if err := os.Symlink(target, filepath.Join(dir, strconv.Itoa(i+3))); err != nil {
			t.Fatal(err)
		}
	}
}

// listenerTree is a /proc with listeners on 8080 (IPv4, held by 200 and
// by its fork 500), 9090 (IPv6, 300) and 7070 (400), and a socket of 100
// connected from 8080 that listens on nothing.
func listenerTree(t *testing.T) string {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"net/tcp": tcpHead +
			"   0: 0100007F:1F90 0100007F:C350 01 00000000:00000000 00:00000000 00000000     0        0 7001 1\n" +
			"   1: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 7002 1\n" +
			"   2: 00000000:1B9E 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 7004 1\n",
		"net/tcp6": tcpHead +
			"   0: 00000000000000000000000000000000:2382 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000 0 0 7003 1\n",
		"self/status": "",
	})
	for pid, fds := range map[int][]string{
		100: {"/dev/null", "socket:[7001]"}, 200: {"pipe:[1]", "socket:[7002]"}, 300: {"socket:[7003]"},
		400: {"socket:[9999]", "socket:[7004]"}, 500: {"socket:[7002]"},
	} {
		writeFDs(t, root, pid, fds...)
	}
	return root
}

// TestListenerPIDs finds each port's listener in one scan of the
// processes' descriptors, IPv4 or IPv6, not a process merely connected
// from the port, the first in the scan when a fork shares the socket; the
// same processes as a scan per port finds, reading each descriptor
// directory once where a scan per port read one per port.
func TestListenerPIDs(t *testing.T) {
	root := listenerTree(t)
	ports := []int{8080, 9090, 7070, 50000}
	want := map[int]int{8080: 200, 9090: 300, 7070: 400}
	got, scan := listenerPIDs(root, ports, maxFDsPerRun)
	if !maps.Equal(got, want) {
		t.Errorf("one scan: %v, want %v", got, want)
	}
	byPort, dirs := map[int]int{}, 0
	for _, p := range ports {
		one, s := listenerPIDs(root, []int{p}, maxFDsPerRun)
		maps.Copy(byPort, one)
		dirs += s.dirs
	}
	if !maps.Equal(byPort, want) {
		t.Errorf("port by port: %v, want %v", byPort, want)
	}
	if scan.dirs != 4 || dirs != 9 {
		t.Errorf("one scan read %d descriptor directories, port by port %d; want 4 (100 to 400, each once, 500 not needed) and 9 (2+3+4)", scan.dirs, dirs)
	}
	if got, scan := listenerPIDs(root, []int{8080}, maxFDsPerRun); got[8080] != 200 || scan.dirs != 2 {
		t.Errorf("8080 alone: %v after %d directories, want 200 after 2 (the scan ends once every port is found)", got, scan.dirs)
	}
	if got := ListenerPIDs(root, nil); len(got) != 0 {
		t.Errorf("no ports: %v", got)
	}
}

// TestListenerPIDsStopsAtItsBound: a process with more descriptors than
// the scan may read ends the scan there, in batches of names, whatever
// the listener behind it.
func TestListenerPIDsStopsAtItsBound(t *testing.T) {
	root := listenerTree(t)
	many := make([]string, 3*fdBatch)
	for i := range many {
		many[i] = "anon_inode:[eventpoll]"
	}
	writeFDs(t, root, 10, many...) // before every listener in the scan
	const bound = 2 * fdBatch
	got, scan := listenerPIDs(root, []int{8080}, bound)
	if len(got) != 0 || scan.fds != bound+1 {
		t.Errorf("bound %d: %v after %d descriptors, want none after %d", bound, got, scan.fds, bound+1)
	}
	if got, _ := listenerPIDs(root, []int{8080}, 4*fdBatch); got[8080] != 200 {
		t.Errorf("within the bound: %v, want 8080 held by 200", got)
	}
}

// BenchmarkListenerPIDs reads this host's /proc for the listeners of n
// loopback ports this process holds: in one scan, and in one scan per
// port as the run did before.
func BenchmarkListenerPIDs(b *testing.B) {
	if _, err := os.Stat(filepath.Join(ProcRoot, "net", "tcp")); err != nil {
		b.Skip("no /proc/net/tcp here")
	}
	var ports []int
	for range 4 {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { l.Close() })
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	for _, n := range []int{1, 4} {
		b.Run(fmt.Sprintf("ports=%d/one-scan", n), func(b *testing.B) {
			for b.Loop() {
				if got := ListenerPIDs(ProcRoot, ports[:n]); len(got) != n {
					b.Fatalf("found %v of %v", got, ports[:n])
				}
			}
		})
		b.Run(fmt.Sprintf("ports=%d/per-port", n), func(b *testing.B) {
			for b.Loop() {
				for _, p := range ports[:n] {
					if got := ListenerPIDs(ProcRoot, []int{p}); len(got) != 1 {
						b.Fatalf("found %v of %d", got, p)
					}
				}
			}
		})
	}
}
