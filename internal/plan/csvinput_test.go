package plan

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestCSVEncoding: a data file that is not UTF-8 is refused with its line,
// column and the encoding it looks like, unless encoding: names it; a
// UTF-16 or UTF-32 byte order mark is named. Before, Latin-1 bytes were
// sent raw in URLs and a UTF-16 file failed as "wrong number of fields".
func TestCSVEncoding(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		name, data, encoding string
		want                 string // the error's text, or the first data row's first value
	}{
		{"utf8 with BOM", "\xef\xbb\xbfuser,pw\nJosé,1\n", "", "José"},
		{"latin1", "user,pw\nJos\xe9,1\n", "", "line 2, column 4: byte 0xe9 is not UTF-8; the file looks like Latin-1"},
		{"latin1 decoded", "user,pw\nJos\xe9,1\n", "latin1", "José"},
		{"cp949", "user,pw\nx,\xb1\xe8\xc3\xb6\xbc\xf6\n", "", "line 2, column 3: byte 0xb1 is not UTF-8; the file looks like a double-byte encoding such as CP949/EUC-KR"},
		{"cp949 decoded", "user,pw\n\xb1\xe8\xc3\xb6\xbc\xf6,1\n", "cp949", "김철수"},
		{"utf16 BOM", "\xff\xfeu\x00,\x00p\x00\n\x00a\x00,\x001\x00\n\x00", "", "the file is UTF-16 (it starts with a UTF-16 byte order mark)"},
		{"utf16 decoded", "\xff\xfeu\x00,\x00p\x00\n\x00a\x00,\x001\x00\n\x00", "utf-16", "a"},
		{"utf16 without BOM", "u\x00,\x00p\x00\n\x00", "", "line 1, column 2: a NUL byte; the file looks like UTF-16"},
		{"utf32 BOM", "\xff\xfe\x00\x00u\x00\x00\x00", "", "the file is UTF-32"},
		{"NUL in a value", "user,pw\nal\x00x,1\n", "", "line 2, column 3: a NUL byte; a CSV file has no NUL bytes"},
		{"truncated at the end", "user,pw\nx,\xe4\xb8", "", "line 2, column 3: byte 0xe4 is not UTF-8"},
		{"bad after many lines", strings.Repeat("a,b\n", 3000) + "é,\xff\n", "", "line 3001, column 4: byte 0xff"},
	} {
		path := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "_")+".csv")
		if err := os.WriteFile(path, []byte(c.data), 0o644); err != nil {
			t.Fatal(err)
		}
		_, rows, _, _, err := ScanCSV(path, MaxDataInMemory, c.encoding)
		got := ""
		if err != nil {
			got = err.Error()
		} else if len(rows) > 0 {
			got = rows[0][0]
		}
		if !strings.HasPrefix(got, c.want) {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

// TestCSVInputSplitCharacters: a character split between two reads is
// whole, not invalid, and a bad one is found wherever the reads split it.
func TestCSVInputSplitCharacters(t *testing.T) {
	for _, c := range []struct {
		data, want string
	}{
		{"a,김철수\né,ü\n", ""},
		{"a,김\n\xe9x,1\n", "line 2, column 1: byte 0xe9"},
	} {
		for size := 1; size <= 4; size++ {
			in := newCSVInput(&chunks{b: []byte(c.data), size: size}, 0)
			var out bytes.Buffer
			_, err := out.ReadFrom(in)
			got := ""
			if err != nil {
				got = err.Error()
			}
			if !strings.HasPrefix(got, c.want) || c.want == "" && out.String() != c.data {
				t.Errorf("%q in reads of %d: %q, want %q", c.data, size, got, c.want)
			}
		}
	}
}

// chunks reads b size bytes at a time.
type chunks struct {
	b    []byte
	size int
}

func (c *chunks) Read(p []byte) (int, error) {
	if len(c.b) == 0 {
		return 0, io.EOF
	}
	n := copy(p[:min(len(p), c.size)], c.b)
	c.b = c.b[n:]
	return n, nil
}

// TestLongRowStopsAtTheLimit: a streamed file's row is read only up to its
// limit, so a huge row costs little memory. Before, encoding/csv held the
// whole row (a 200 MiB row took 1.3 GB) before its size was checked.
func TestLongRowStopsAtTheLimit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "long.csv")
	row := bytes.Repeat([]byte("a"), MaxDataInMemory+1<<20)
	if err := os.WriteFile(path, append([]byte("user\n"), row...), 0o644); err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, _, _, _, err := ScanCSV(path, MaxDataInMemory, "")
	runtime.ReadMemStats(&after)
	if err == nil || !strings.HasPrefix(err.Error(), "the row on line 2 is longer than 1 MiB (the rest was not read)") {
		t.Errorf("error %v, want the row on line 2 refused", err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > uint64(len(row)) { // held whole, the row alone would be more
		t.Errorf("reading the row allocated %d bytes, want less than the row's %d: it was read past its limit", alloc, len(row))
	}
}

// TestDataValueHTTPCannotCarry: a data value with a line break or another
// control character that a URL or header inserts as it is fails the test
// when it is read, naming the file, row and column. Before, each request
// with it failed unsent as "invalid URL", counted as a request with a rate.
func TestDataValueHTTPCannotCarry(t *testing.T) {
	dir := t.TempDir()
	const csv = "user,note\nal,\"a\r\nb\"\n\"x\r\nHost: evil\",1\n"
	if err := os.WriteFile(filepath.Join(dir, "users.csv"), []byte(csv), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, step, want string
	}{
		{"in the URL", "- get: /u/{{ user }}", "CSV file users.csv, data row 2, column user: the value has a line break at byte 2; it fills the URL of GET"},
		{"in a header", "- get: /u\n        headers: {X-Note: \"{{ note }}\"}", "data row 1, column note: the value has a line break at byte 2; it fills the header X-Note of GET"},
		{"in a query, escaped", "- get: /u\n        query: {u: \"{{ user }}\"}", ""},
		{"in a body", "- post: /u\n        body: \"{{ note }}\"", ""},
	} {
		src := "name: t\nbase_url: http://127.0.0.1:1\nscenarios:\n  s:\n    vus: 1\n    duration: 1s\n    data: users.csv\n    flow:\n      " + c.step + "\n"
		_, err := Parse(filepath.Join(dir, "t.yaml"), []byte(src), nil)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if c.want == "" && got != "" || !strings.Contains(got, c.want) {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}
