package engine

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/engine/h1/h1test"
	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/tmpl"
)

// writeRows writes a CSV of n rows (id, name), a quoted name over two
// lines every 7th, and returns its path.
func writeRows(t *testing.T, n int) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("id,name\n")
	for i := range n {
		if i%7 == 0 {
			fmt.Fprintf(&b, "%d,\"line one, %d\nline two\"\n", i, i)
		} else {
			fmt.Fprintf(&b, "%d,row-%d\n", i, i)
		}
	}
	path := filepath.Join(t.TempDir(), "rows.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// streamed reads path as the plan does a file too large to hold.
func streamed(t *testing.T, path string, mode plan.DataMode) *plan.Data {
	t.Helper()
	cols, rows, count, file, err := plan.ScanCSV(path, 0, "")
	if err != nil || rows != nil || file == nil {
		t.Fatalf("scan: %v (held %d rows)", err, len(rows))
	}
	return &plan.Data{File: "rows.csv", Columns: cols, Count: count, Stream: file, Mode: mode, StopOnEmpty: true}
}

// idServer counts the requests for each id, in the order they came.
type idServer struct {
	mu    sync.Mutex
	order []int
	names map[int]string
}

func newIDServer(t *testing.T) (*idServer, string) {
	s := &idServer{names: map[int]string{}}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id, _ := strconv.Atoi(r.URL.Query().Get("id"))
		name, _ := io.ReadAll(r.Body)
		s.mu.Lock()
		s.order = append(s.order, id)
		s.names[id] = string(name)
		s.mu.Unlock()
	}))
	t.Cleanup(srv.Close)
	return s, srv.URL
}

// rowScenario is n iterations of 2 VUs (unique: 3 VUs until the rows run
// out), each a POST sending a row's id
// in its query and its name as its body.
func rowScenario(t *testing.T, url string, n int, d *plan.Data) *plan.Scenario {
	scope := &tmpl.Scope{Vars: map[string]int{"id": 0, "name": 1}}
	u, err := tmpl.Compile(url+"/?id={{ id }}", scope)
	if err != nil {
		t.Fatal(err)
	}
	body, err := tmpl.Compile("{{ name }}", scope)
	if err != nil {
		t.Fatal(err)
	}
	load := plan.Load{Model: plan.Iterations, VUCount: 2, Count: int64(n), MaxDuration: time.Minute}
	if d.Mode == plan.Unique {
		load = plan.Load{Model: plan.VUs, StartVUs: 3, Stages: []plan.Stage{{Duration: time.Minute, Target: 3}}} // one a segment
	}
	s := scenario(load, plan.Step{Kind: plan.RequestStep, Request: &plan.Request{Method: "POST", URL: u, BodyKind: plan.RawBody, Body: body, Timeout: 10 * time.Second, MaxBody: 1 << 10}})
	s.Vars, s.Data = []string{"id", "name"}, d
	return s
}

// TestStreamedDataKeepsEachMode: rows of a file too large to hold are read
// from it while the run goes, a few ahead of the VUs, and handed out as the
// test asks: sequential wraps around in the file's order, unique gives
// each row to one iteration of the whole run (over segments too), random
// reaches rows all over the file. Quoted rows over two lines come whole.
func TestStreamedDataKeepsEachMode(t *testing.T) {
	const rows = 1500 // two blocks of the file's index (1,024 rows a block)
	path := writeRows(t, rows)
	t.Run("sequential", func(t *testing.T) {
		srv, url := newIDServer(t)
		if _, err := run(t, plan.Whole, rowScenario(t, url, 2*rows+500, streamed(t, path, plan.Sequential))); err != nil {
			t.Fatal(err)
		}
		counts := map[int]int{}
		for _, id := range srv.order {
			counts[id]++
		}
		for id := range rows {
			if want := 2 + btoi(id < 500); counts[id] != want {
				t.Fatalf("row %d was handed out %d times, want %d (3,500 iterations over 1,500 rows, in order)", id, counts[id], want)
			}
		}
		if got := srv.names[7]; got != "line one, 7\nline two" {
			t.Errorf("row 7's name came as %q", got)
		}
	})
	t.Run("unique over three segments", func(t *testing.T) {
		srv, url := newIDServer(t)
		for _, seg := range []string{"0:1/3", "1/3:2/3", "2/3:1"} {
			sg, _ := plan.ParseSegment(seg)
			if _, err := run(t, sg, rowScenario(t, url, 0, streamed(t, path, plan.Unique))); err != nil {
				t.Fatal(err)
			}
		}
		counts := map[int]int{}
		for _, id := range srv.order {
			counts[id]++
		}
		if len(srv.order) != rows || len(counts) != rows {
			t.Fatalf("%d iterations over %d distinct rows, want each of the %d rows once", len(srv.order), len(counts), rows)
		}
	})
	t.Run("random", func(t *testing.T) {
		srv, url := newIDServer(t)
		if _, err := run(t, plan.Whole, rowScenario(t, url, 3000, streamed(t, path, plan.Random))); err != nil {
			t.Fatal(err)
		}
		counts, inOrder, ends := map[int]int{}, 0, [2]int{}
		for i, id := range srv.order {
			counts[id]++
			if i > 0 && id == srv.order[i-1]+1 {
				inOrder++
			}
			if id < rows/4 {
				ends[0]++
			} else if id >= rows-rows/4 {
				ends[1]++
			}
		}
		t.Logf("3,000 random rows: %d distinct, %d right after the row before, %v in the first and last quarter", len(counts), inOrder, ends)
		// 3,000 uniform draws from 1,500 rows reach about 1,300 of them (runs
		// of 64 rows: within about 100), 750 in each quarter. The 3,000 are
		// only about 47 runs: a tenth (150 rows) got under 50 in 1.2 % of
		// 20,000 simulated runs, a quarter never under 169 in 10,000; the
		// last quarter is all in the index's second block.
		if len(counts) < 900 || inOrder > len(srv.order)/2 || ends[0] < 50 || ends[1] < 50 {
			t.Errorf("3,000 random rows: %d distinct, %d right after the row before, %v in the first and last quarter; want over 900, few, and over 50 in each quarter",
				len(counts), inOrder, ends)
		}
	})
	t.Run("a file changed since the test was read", func(t *testing.T) {
		_, url := newIDServer(t)
		d := streamed(t, path, plan.Sequential)
		f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
		f.WriteString("9999,late\n")
		f.Close()
		_, err := run(t, plan.Whole, rowScenario(t, url, 10, d))
		if err == nil || !strings.Contains(err.Error(), "data file rows.csv: it changed since the test was read") {
			t.Fatalf("run error %v, want the data file changed", err)
		}
	})
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestRequestPathWithDataDoesNotAllocate: an iteration that takes a data
// row, held or streamed, allocates nothing on the VU's side: a held row
// is a slice of the rows, a streamed one a receive from the reader's
// channel (the reader, which makes the rows, runs beside the VUs).
func TestRequestPathWithDataDoesNotAllocate(t *testing.T) {
	path := writeRows(t, 300)
	held := &plan.Data{File: "rows.csv", Columns: []string{"id", "name"}, Rows: [][]string{{"1", "a"}, {"2", "b"}}, Mode: plan.Sequential}
	for name, d := range map[string]*plan.Data{"held": held, "streamed": streamed(t, path, plan.Sequential)} {
		t.Run(name, func(t *testing.T) {
			s := scenario(plan.Load{Model: plan.Iterations, VUCount: 1, Count: 1, MaxDuration: time.Minute}, get(h1test.FixedServer(t)))
			s.Vars, s.Data = []string{"id", "name"}, d
			e := New(&plan.Plan{Scenarios: []*plan.Scenario{s}}, nullSink{}, Options{})
			e.start = time.Now()
			v := e.scens[0].newVU()
			t.Cleanup(v.close)
			if st := e.scens[0].feed.stream; st != nil { // rows as the reader would have made them, before the count
				for i := 0; i < 250; i++ {
					st.rows <- []string{strconv.Itoa(i), "row"}
				}
			}
			ctx := context.Background()
			v.iterate(ctx, time.Now()) // warm up: dial, buffers
			if n := testing.AllocsPerRun(200, func() { v.iterate(ctx, time.Now()) }); n != 0 {
				t.Fatalf("%v allocations per iteration of one GET with a %s data row, want 0", n, name)
			}
		})
	}
}
