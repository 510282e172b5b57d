package har

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/importer"
	"github.com/loadlens/loadlens/internal/testkit"
)

// recording writes a session of n API calls as a HAR, as it is read: each
// request sends back the id and the token the previous response handed
// out (so every one is correlated), and each response carries pad bytes.
func recording(n, pad int) io.Reader {
	r, w := io.Pipe()
	go func() {
		b := bufio.NewWriterSize(w, 64<<10)
		b.WriteString(`{"log": {"creator": {"name": "gen", "version": "1"}, "entries": [`)
		filler := strings.Repeat("x", pad)
		for i := range n {
			if i > 0 {
				b.WriteString(",\n")
			}
			at := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Millisecond)
			fmt.Fprintf(b, `{"startedDateTime": %q, "time": 0.5, "_resourceType": "fetch",`+
				`"request": {"method": "GET", "url": "http://shop.test/item/%d?ref=r%07dx", "headers": [{"name": "X-Trace", "value": "trace-%08d"}]},`+
				`"response": {"status": 200, "headers": [], "content": {"mimeType": "application/json", "text": "{\"id\": %d, \"next\": \"r%07dx\", \"pad\": \"%s\"}"}}}`,
				at.Format(time.RFC3339Nano), 100000+i, i, i, 100000+i+1, i+1, filler)
		}
		b.WriteString("]}}")
		w.CloseWithError(b.Flush())
	}()
	return r
}

// deepRecording nests an entry's post data levels lists deep.
func deepRecording(levels int) io.Reader {
	return strings.NewReader(`{"log": {"entries": [{"request": {"method": "GET", "url": "http://h/", "postData": {"params": ` +
		strings.Repeat("[", levels) + strings.Repeat("]", levels) + `}}, "response": {"status": 200}}]}}`)
}

// TestImportHARTimeGrowsLinearly: four times the entries, every one of
// them correlated, take about four times the CPU, not sixteen. Before,
// each value sent was looked for in every earlier response, parsing it
// again each time: 2,500 entries took 17.5 s, 5,000 took 86 s.
func TestImportHARTimeGrowsLinearly(t *testing.T) {
	if arg, ok := testkit.PeakChild(); ok {
		n, _ := strconv.Atoi(arg)
		opt := DefaultOptions()
		opt.MaxEntries = n
		tst, err := Import(recording(n, 0), "gen.har", opt)
		if err != nil {
			t.Fatal(err)
		}
		if len(tst.Notes) < 4 || strings.Count(tst.Notes[3], "next") != n-1 {
			t.Fatalf("not every value was correlated: %.200s", tst.Notes)
		}
		if _, err := importer.Render(tst, "t.yaml"); err != nil {
			t.Fatal(err)
		}
		testkit.ReportPeak()
		return
	}
	small := testkit.RunChild(t, "500", 2*time.Minute)
	large := testkit.RunChild(t, "2000", 2*time.Minute)
	if ratio := float64(large.CPU) / float64(small.CPU); ratio > 8 {
		t.Errorf("4 times the entries took %.1f times the CPU (%v, %v): the import is not linear", ratio, small.CPU, large.CPU)
	}
}

// hostileRecordings are recordings an import must read in bounded memory:
// its peak for the 50 MB one may not be much above the 5 MB one's.
var hostileRecordings = map[string]func() (io.Reader, Options, string){
	"5 MB": func() (io.Reader, Options, string) {
		return recording(1000, 5000), DefaultOptions(), ""
	},
	"50 MB": func() (io.Reader, Options, string) {
		return recording(10000, 5000), DefaultOptions(), "8,000 requests after the first 2,000 (--max-entries reads more)"
	},
	"past the bytes read": func() (io.Reader, Options, string) {
		opt := DefaultOptions()
		opt.MaxBytes = 1 << 20
		head := make([]byte, opt.MaxBytes) // counted apart: the entries that end within the first MiB
		io.ReadFull(recording(10000, 5000), head)
		whole := strings.Count(string(head), "}}}")
		return recording(10000, 5000), opt, fmt.Sprintf("the recording past its first 1 MiB (an import reads at most that): %d entries read, the rest left out", whole)
	},
	"100,000 levels of nesting": func() (io.Reader, Options, string) {
		return deepRecording(100000), DefaultOptions(), "exceeded max depth"
	},
}

// TestImportHARMemoryDoesNotGrowWithTheFile: a recording is read entry by
// entry, at most 2,000 requests kept (--max-entries) and the rest counted:
// ten times the file takes about the same memory, and what was cut is
// said. Before, the whole file was read into memory, then decoded whole.
func TestImportHARMemoryDoesNotGrowWithTheFile(t *testing.T) {
	if arg, ok := testkit.PeakChild(); ok {
		r, opt, want := hostileRecordings[arg]()
		tst, err := Import(r, "gen.har", opt)
		said := fmt.Sprint(err)
		if tst != nil {
			said = strings.Join(tst.NotConverted, "\n")
		}
		if !strings.Contains(said, want) {
			t.Fatalf("said %q, want %q", said, want)
		}
		testkit.ReportPeak()
		return
	}
	peaks := map[string]int64{}
	for _, name := range []string{"5 MB", "50 MB", "past the bytes read", "100,000 levels of nesting"} {
		t.Run(name, func(t *testing.T) { peaks[name] = testkit.PeakMemory(t, name, 2*time.Minute) })
	}
	if small, large := peaks["5 MB"], peaks["50 MB"]; large > small+32<<20 {
		t.Errorf("a 50 MB recording took %d MiB at its peak, a 5 MB one %d MiB: memory grows with the file", large>>20, small>>20)
	}
	for name, p := range peaks {
		if p > 256<<20 {
			t.Errorf("%s: %d MiB at the peak, want at most 256 MiB", name, p>>20)
		}
	}
}

// TestImportHARCraftedValuesStopCorrelating: values crafted to match
// everywhere (2,000 of them, of every length, in a page of "a-a-a-...")
// would take days to look for; correlation stops at its budget, says so,
// and the import ends.
func TestImportHARCraftedValuesStopCorrelating(t *testing.T) {
	page := strings.Repeat("a-", 1<<19)
	var query []string
	for n := 17; len(query) < 2000; n += 2 {
		query = append(query, fmt.Sprintf("v%d=%s", n, page[:n]))
	}
	har := `{"log": {"entries": [
 {"startedDateTime": "2024-01-01T00:00:00Z", "request": {"method": "GET", "url": "http://h/"}, "response": {"status": 200, "content": {"mimeType": "text/html", "text": "` + page + `"}}},
 {"startedDateTime": "2024-01-01T00:00:01Z", "request": {"method": "GET", "url": "http://h/s?` + strings.Join(query, "&") + `"}, "response": {"status": 200}}]}}`
	done := make(chan *importer.Test, 1)
	go func() {
		tst, err := Import(strings.NewReader(har), "crafted.har", DefaultOptions())
		if err != nil {
			t.Error(err)
		}
		done <- tst
	}()
	select {
	case tst := <-done:
		if tst != nil && !strings.Contains(strings.Join(tst.NotConverted, "\n"), "looking for them took too long") {
			t.Errorf("not converted does not say correlation stopped: %q", tst.NotConverted)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("the import did not end within 60 s")
	}
}
