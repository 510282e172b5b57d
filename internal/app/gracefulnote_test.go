package app

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestGracefulStopNoteIsPrintedOnce: the engine's note that it waits for
// requests in flight is news of the moment; the summary says what came of
// it (the requests cut off), so the terminal shows the note once.
func TestGracefulStopNoteIsPrintedOnce(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select { // slower than the run: every iteration is cut at the graceful stop
		case <-r.Context().Done():
		case <-release:
		}
	}))
	defer srv.Close()
	defer close(release)
	yaml := fmt.Sprintf(`
base_url: %s
scenarios:
  slow:
    vus: 2
    duration: 1s
    graceful_stop: 500ms
    flow:
      - get: /
`, srv.URL)
	_, text, s := runYAML(t, yaml, nil)
	if n := strings.Count(text, "(graceful stop)"); n != 1 {
		t.Errorf("the graceful-stop note is printed %d times, want once:\n%s", n, text)
	}
	if !strings.Contains(strings.Join(strings.Fields(text), " "), "were cut off by the end of the run (interrupted)") {
		t.Errorf("the summary does not say the requests were cut off:\n%s", text)
	}
	if got := metric(s, "http_reqs", "count"); got != 2 {
		t.Errorf("%v requests, want the 2 the VUs had in flight", got)
	}
}
