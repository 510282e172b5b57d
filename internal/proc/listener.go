package proc

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// ProcRoot is where Linux shows its processes.
const ProcRoot = "/proc"

// Bounds on the search for a listener's process: a host's processes and
// their descriptors are read at most this far, whatever runs there.
const (
	maxProcs     = 8192
	maxFDsPerRun = 1 << 18
)

// ListenerPID returns the process listening on TCP port (IPv4 or IPv6, any
// local address: a loopback URL reaches a socket bound to 0.0.0.0 too),
// from procRoot/net/tcp{,6} and the processes' descriptors; false when no
// listener, or none whose descriptors loadlens may read, holds it.
func ListenerPID(procRoot string, port int) (int, bool) {
	inodes := map[string]bool{}
	for _, f := range []string{"tcp", "tcp6"} {
		listening(filepath.Join(procRoot, "net", f), port, inodes)
	}
	if len(inodes) == 0 {
		return 0, false
	}
	dirs, err := os.ReadDir(procRoot)
	if err != nil {
		return 0, false
	}
	read := 0
	for _, d := range dirs[:min(len(dirs), maxProcs)] {
		pid, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		fdDir := filepath.Join(procRoot, d.Name(), "fd")
		fds, err := os.ReadDir(fdDir)
		if err != nil {
			continue // gone, or not ours to read
		}
		for _, fd := range fds {
			if read++; read > maxFDsPerRun {
				return 0, false
			}
			link, err := os.Readlink(filepath.Join(fdDir, fd.Name()))
			if err == nil && strings.HasPrefix(link, "socket:[") && inodes[strings.TrimSuffix(strings.TrimPrefix(link, "socket:["), "]")] {
				return pid, true
			}
		}
	}
	return 0, false
}

// listening adds the inodes of the sockets in a /proc/net/tcp table that
// listen (state 0A) on port.
func listening(path string, port int, inodes map[string]bool) {
	f, err := os.Open(path)
	if err != nil {
		return
	}
	defer f.Close()
	want := fmt.Sprintf(":%04X", port)
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode
		fields := strings.Fields(sc.Text())
		if len(fields) < 10 || fields[3] != "0A" || !strings.HasSuffix(fields[1], want) {
			continue
		}
		inodes[fields[9]] = true
	}
}
