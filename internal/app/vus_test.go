package app

import (
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/store"
)

// TestEverySecondHasTheVUsThatRanIn is trial defect C: a 2 s run of 4 VUs
// stored vus=0 for its last whole second (the gauge was read after the
// VUs had stopped) while it served tens of thousands of requests, and the
// verdict said "with 2 VUs". Every whole second with requests must carry
// the VUs that ran in it, and the verdict their count, in the right number.
func TestEverySecondHasTheVUsThatRanIn(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer srv.Close()
	for _, c := range []struct {
		vus  string
		says string
	}{
		{"4", "with 4 VUs (at"},
		{"1", "with 1 VU (at"},
	} {
		t.Run(c.vus+" VUs", func(t *testing.T) {
			res, text, _ := runYAML(t, "base_url: "+srv.URL+"\nscenarios:\n  s: {vus: "+c.vus+", duration: 2s, flow: [get: /]}\n", nil)
			rd, err := store.Open(filepath.Join(res.Dir, "run.db"))
			if err != nil {
				t.Fatal(err)
			}
			defer rd.Close()
			run, err := rd.Run()
			if err != nil {
				t.Fatal(err)
			}
			var seconds []metrics.Second
			for _, s := range run.Series {
				if s.Requests > 0 && s.Sec < 2 { // the whole seconds
					seconds = append(seconds, s)
				}
			}
			if len(seconds) != 2 {
				t.Fatalf("%d whole seconds with requests, want 2", len(seconds))
			}
			for _, s := range seconds {
				if strconv.FormatInt(s.VUs, 10) != c.vus {
					t.Errorf("second %d: %d requests with vus=%d, want %s", s.Sec, s.Requests, s.VUs, c.vus)
				}
			}
			flat := strings.Join(strings.Fields(text), " ")
			if strings.Contains(flat, "no bottleneck found") && !strings.Contains(flat, c.says) {
				t.Errorf("the verdict does not say %q:\n%s", c.says, text)
			}
		})
	}
}
