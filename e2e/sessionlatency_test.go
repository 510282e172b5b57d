package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestSessionIsNoRequestLatency: a fast GET beside an sse: step held 1 s
// passes http_req_duration p(95)<500ms through the real binary (trial
// s35, defect 5: it failed with p(95)=2.00s, exit 99), while the session's
// own metric keeps its length. e2e because the threshold, the exit code and
// summary.json are the user's gate, from the parser's Session flag on.
func TestSessionIsNoRequestLatency(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/feed" {
			w.Write([]byte("ok"))
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, "data: hello\n\n")
		w.(http.Flusher).Flush()
		select { // held until the client closes it at its duration:, bounded
		case <-r.Context().Done():
		case <-time.After(30 * time.Second):
		}
	}))
	defer srv.Close()
	dir := t.TempDir()
	test := `name: sessions
base_url: ` + srv.URL + `
scenarios:
  s:
    iterations: 2
    vus: 2
    flow:
      - get: /ok
      - sse: /feed
        duration: 1s
thresholds:
  http_req_duration: ["p(95) < 500ms"]
  sse_session_duration: ["p(95) >= 900ms"]
`
	if err := os.WriteFile(filepath.Join(dir, "t.yaml"), []byte(test), 0o644); err != nil {
		t.Fatal(err)
	}
	res := loadlens(t, dir, "run", "t.yaml", "--quiet", "--results", "results")
	if res.code != 0 {
		t.Fatalf("exit %d, want 0\n%s%s", res.code, res.stdout, res.stderr)
	}
	b, err := os.ReadFile(filepath.Join(onlyRunDir(t, filepath.Join(dir, "results")), "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var out struct {
		Metrics map[string]map[string]any `json:"metrics"`
	}
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	d := out.Metrics["http_req_duration"]
	count, _ := d["count"].(float64)
	maxMs, _ := d["max"].(float64)
	if n := out.Metrics["http_reqs"]["count"]; count != 2 || maxMs >= 500 || n != 4.0 {
		t.Errorf("http_req_duration = %v (want the 2 GETs alone), http_reqs = %v (want 4: the sessions count)", d, n)
	}
}
