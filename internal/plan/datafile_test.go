package plan

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/testkit"
)

// writeCSV writes a data file of about size bytes (user, password rows)
// beside a test that uses it, and returns the test's path and the rows.
func writeCSV(t testing.TB, dir string, size int64) (string, int64) {
	t.Helper()
	f, err := os.Create(filepath.Join(dir, "users.csv"))
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	w.WriteString("\xef\xbb\xbfuser,password\n")
	var rows int64
	for n := int64(0); n < size; rows++ {
		k, _ := fmt.Fprintf(w, "user-%09d,\"pass, word %d\"\n", rows, rows)
		n += int64(k)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	test := filepath.Join(dir, "t.yaml")
	src := "name: t\nbase_url: http://127.0.0.1:1\nscenarios:\n  s:\n    vus: 1\n    duration: 1s\n    data: users.csv\n    flow:\n      - get: /u/{{ user }}\n"
	if err := os.WriteFile(test, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return test, rows
}

// TestDataFileMemoryDoesNotGrowWithTheFile: a data file larger than 16 MiB
// is read once to check it and count and index its rows, not held: a file
// five times larger takes about the same memory to parse. Before, the
// whole file was read and split into rows (a 1 GB CSV: 3.1 GB).
func TestDataFileMemoryDoesNotGrowWithTheFile(t *testing.T) {
	if arg, ok := testkit.PeakChild(); ok {
		path, want, _ := strings.Cut(arg, "|")
		p, err := ParseFile(path, nil)
		if err != nil {
			t.Fatal(err)
		}
		d := p.Scenarios[0].Data
		if strconv.FormatInt(d.Count, 10) != want || d.Rows != nil || d.Stream == nil {
			t.Fatalf("%d rows (held: %d), want %s streamed", d.Count, len(d.Rows), want)
		}
		testkit.ReportPeak()
		return
	}
	peaks := map[int64]int64{}
	for _, size := range []int64{24 << 20, 120 << 20} {
		dir := t.TempDir()
		test, rows := writeCSV(t, dir, size)
		peaks[size] = testkit.PeakMemory(t, test+"|"+strconv.FormatInt(rows, 10), 2*time.Minute)
		os.Remove(filepath.Join(dir, "users.csv"))
	}
	if small, large := peaks[24<<20], peaks[120<<20]; large > small+16<<20 || large > 64<<20 {
		t.Errorf("parsing a 120 MiB data file took %d MiB at the peak, a 24 MiB one %d MiB: want about the same, at most 64 MiB", large>>20, small>>20)
	}
}

// TestDataFileRefusals: a streamed file's rows are bounded, and a device or
// a named pipe is refused before it is read.
func TestDataFileRefusals(t *testing.T) {
	dir := t.TempDir()
	long := filepath.Join(dir, "long.csv")
	os.WriteFile(long, []byte("a\n"+strings.Repeat("x", MaxStreamedRow+1)+"\nb\n"), 0o644)
	for _, c := range []struct{ path, want string }{
		{long, "the row on line 2 is 1.0 MiB; a row of a data file larger than 16 MiB may be at most 1 MiB"},
		{"/dev/zero", "not a regular file"},
	} {
		_, _, _, _, err := ScanCSV(c.path, 0, "")
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: %v, want %q", c.path, err, c.want)
		}
	}
}
