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

// Bounds on the search for listeners' processes: a host's processes and
// their descriptors are read at most this far, whatever runs there (a
// process with 100,000 descriptors among them), and a descriptor
// directory's names are read a batch at a time, so memory stays bounded too.
const (
	maxProcs     = 8192
	maxFDsPerRun = 1 << 18
	fdBatch      = 256
)

// ListenerPIDs returns the process listening on each of the TCP ports
// (IPv4 or IPv6, any local address: a loopback URL reaches a socket bound
// to 0.0.0.0 too), from procRoot/net/tcp{,6} and the processes'
// descriptors, read once for all the ports; a port no listener holds, or
// none whose descriptors loadlens may read, is absent from the map.
func ListenerPIDs(procRoot string, ports []int) map[int]int {
	pids, _ := listenerPIDs(procRoot, ports, maxFDsPerRun)
	return pids
}

// fdScan is what a search read: descriptor directories and descriptors.
type fdScan struct{ dirs, fds int }

// listenerPIDs is ListenerPIDs reading at most maxFDs descriptors.
func listenerPIDs(procRoot string, ports []int, maxFDs int) (map[int]int, fdScan) {
	found, scan := map[int]int{}, fdScan{}
	inodes := map[string]int{} // a listening socket's inode → its port
	for _, f := range []string{"tcp", "tcp6"} {
		listening(filepath.Join(procRoot, "net", f), ports, inodes)
	}
	if len(inodes) == 0 {
		return found, scan
	}
	dirs, err := os.ReadDir(procRoot)
	if err != nil {
		return found, scan
	}
	for _, d := range dirs[:min(len(dirs), maxProcs)] {
		pid, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		scan.dirs++
		if !scanFDs(filepath.Join(procRoot, d.Name(), "fd"), pid, inodes, found, &scan, maxFDs) {
			return found, scan
		}
		if len(inodes) == 0 {
			return found, scan // every port's listener found
		}
	}
	return found, scan
}

// scanFDs reads one process's descriptors, moving each listening socket it
// holds from inodes to found (port → pid), so that the first process in
// the scan holds a port, as the search did port by port; false once the
// scan has read maxFDs descriptors.
func scanFDs(fdDir string, pid int, inodes map[string]int, found map[int]int, scan *fdScan, maxFDs int) bool {
	f, err := os.Open(fdDir)
	if err != nil {
		return true // gone, or not ours to read
	}
	defer f.Close()
	for {
		names, err := f.Readdirnames(fdBatch)
		for _, name := range names {
			if scan.fds++; scan.fds > maxFDs {
				return false
			}
			link, err := os.Readlink(filepath.Join(fdDir, name))
			if err != nil || !strings.HasPrefix(link, "socket:[") {
				continue
			}
			inode := strings.TrimSuffix(strings.TrimPrefix(link, "socket:["), "]")
			if port, ok := inodes[inode]; ok {
				found[port] = pid
				dropPort(inodes, port)
			}
		}
		if err != nil { // io.EOF: the directory read whole
			return true
		}
	}
}

// dropPort forgets port's inodes once its process is found: a socket of
// another process on it (a fork's copy) names no other listener.
func dropPort(inodes map[string]int, port int) {
	for inode, p := range inodes {
		if p == port {
			delete(inodes, inode)
		}
	}
}

// listening adds the inodes of the sockets in a /proc/net/tcp table that
// listen (state 0A) on one of ports, each with its port.
func listening(path string, ports []int, inodes map[string]int) {
	f, err := os.Open(path)
	if err != nil {
		return
	}
	defer f.Close()
	want := make(map[string]int, len(ports))
	for _, p := range ports {
		want[fmt.Sprintf("%04X", p)] = p
	}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode
		fields := strings.Fields(sc.Text())
		if len(fields) < 10 || fields[3] != "0A" {
			continue
		}
		_, hex, ok := strings.Cut(fields[1], ":")
		if port, listed := want[hex]; ok && listed {
			inodes[fields[9]] = port
		}
	}
}
