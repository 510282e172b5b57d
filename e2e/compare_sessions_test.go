package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestCompareSessionFacts: two 3-second runs of sse: steps, the second
// against a feed whose first event comes 60 ms later, compared through the
// real binary (e2e because the facts travel through run.db's snapshots to
// compare, which no unit test crosses). The session endpoint's row has the
// session lines in the table, the JSON and the page, and B's time to
// first message is the later one.
func TestCompareSessionFacts(t *testing.T) {
	var delay atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		w.(http.Flusher).Flush()
		select { // a slow feed's first event, not a synchronisation
		case <-time.After(time.Duration(delay.Load())):
		case <-r.Context().Done():
			return
		}
		for i := 1; i <= 3; i++ {
			fmt.Fprintf(w, "id: %d\ndata: {\"n\": %d}\n\n", i, i)
		}
	}))
	defer srv.Close()
	dir := t.TempDir()
	test := fmt.Sprintf(`name: feed
base_url: %s
scenarios:
  feed:
    vus: 4
    duration: 3s
    flow:
      - sse: /feed
        max_events: 3
        timeout: 5s
`, srv.URL)
	os.WriteFile(filepath.Join(dir, "t.yaml"), []byte(test), 0o644)
	var runs []string
	for i, d := range []time.Duration{5 * time.Millisecond, 65 * time.Millisecond} {
		delay.Store(int64(d))
		results := fmt.Sprintf("r%d", i)
		r := loadlens(t, dir, "run", "t.yaml", "--quiet", "--no-dashboard", "--results", results)
		if r.code != 0 {
			t.Fatalf("run exit %d\n%s%s", r.code, r.stdout, r.stderr)
		}
		runs = append(runs, onlyRunDir(t, filepath.Join(dir, results)))
	}
	text := loadlens(t, dir, "compare", runs[0], runs[1])
	for _, want := range []string{"sessions/s", "msgs received/s", "first msg p50", "first msg p95", "length p95"} {
		if !strings.Contains(text.stdout, want) {
			t.Errorf("the table lacks %q:\n%s%s", want, text.stdout, text.stderr)
		}
	}
	if testing.Verbose() {
		t.Log(text.stdout)
	}
	js := loadlens(t, dir, "compare", runs[0], runs[1], "--format", "json")
	var rep struct {
		Rows []struct {
			Lines []struct {
				Metric string `json:"metric"`
				Groups []struct {
					Has   bool    `json:"has"`
					Value float64 `json:"value"`
				} `json:"groups"`
			} `json:"metrics"`
		} `json:"rows"`
	}
	if err := json.Unmarshal([]byte(js.stdout), &rep); err != nil || len(rep.Rows) != 1 {
		t.Fatalf("compare --format json: %v, %d rows\n%s%s", err, len(rep.Rows), js.stdout, js.stderr)
	}
	got := map[string][]float64{}
	for _, l := range rep.Rows[0].Lines {
		for _, g := range l.Groups {
			if g.Has {
				got[l.Metric] = append(got[l.Metric], g.Value)
			}
		}
	}
	first := got["first msg p50"]
	if len(first) != 2 || first[1] < first[0]+30 { // B waits 60 ms longer for every first event
		t.Errorf("first msg p50: %v ms, want B's at least 30 ms later than A's", first)
	}
	if m := got["msgs received/s"]; len(m) != 2 || m[0] <= 0 {
		t.Errorf("msgs received/s: %v", m)
	}
	page := loadlens(t, dir, "compare", runs[0], runs[1], "--format", "html")
	if !strings.Contains(page.stdout, "first msg p95") {
		t.Errorf("compare.html lacks the session lines:\n%s", page.stderr)
	}
}
