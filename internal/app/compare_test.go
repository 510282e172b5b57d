package app

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// runAgainst runs an open-model test against a server answering after
// delay and returns the run directory.
func runAgainst(t *testing.T, results string, delay time.Duration) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(delay) // the service time under test, not synchronisation
		w.Write([]byte("ok"))
	}))
	defer srv.Close()
	p := parseTest(t, fmt.Sprintf(`
base_url: %s
scenarios:
  api:
    rate: 40
    duration: 8s
    flow:
      - get: /items
`, srv.URL))
	res, err := Run(context.Background(), RunConfig{Plan: p, ResultsDir: results, Out: &bytes.Buffer{}, Quiet: true, Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	return res.Dir
}

// p95Change returns whether the p95 of the compared run changed significantly, and by how much.
func p95Change(t *testing.T, js []byte) (bool, float64) {
	t.Helper()
	var rep struct {
		Rows []struct {
			Name    string `json:"name"`
			Metrics []struct {
				Metric string `json:"metric"`
				Runs   []struct {
					Significant bool     `json:"significant"`
					DeltaPct    *float64 `json:"delta_pct"`
				} `json:"runs"`
			} `json:"metrics"`
		} `json:"rows"`
	}
	if err := json.Unmarshal(js, &rep); err != nil {
		t.Fatalf("compare JSON: %v\n%s", err, js)
	}
	for _, row := range rep.Rows {
		for _, m := range row.Metrics {
			if strings.EqualFold(m.Metric, "p95") && len(m.Runs) == 2 && m.Runs[1].DeltaPct != nil {
				return m.Runs[1].Significant, *m.Runs[1].DeltaPct
			}
		}
	}
	t.Fatalf("no p95 line in %s", js)
	return false, 0
}

func TestCompareRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("three 8-second runs")
	}
	// service times well above the timer noise of a busy 2-core machine
	dir := t.TempDir()
	base := runAgainst(t, dir, 20*time.Millisecond)
	same := runAgainst(t, dir, 20*time.Millisecond)
	slower := runAgainst(t, dir, 26*time.Millisecond) // 30 % slower service time
	cases := []struct {
		name        string
		other       string
		gates       []string
		wantSig     bool
		wantCode    int
		minDeltaPct float64
	}{
		{"same server: no significant change", same, []string{"p(95) +10%"}, false, ExitOK, -100},
		{"30% slower: a significant p95 regression fails the gate", slower, []string{"p(95) +10%"}, true, ExitThresholdFailed, 15},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var js bytes.Buffer
			if _, err := Compare(CompareConfig{Runs: []string{base, c.other}, Format: "json", Out: &js}); err != nil {
				t.Fatal(err)
			}
			sig, delta := p95Change(t, js.Bytes())
			// a test at level alpha flags identical runs alpha of the time; a
			// flag on a change of a few percent is that, not a regression
			noise := !c.wantSig && sig && math.Abs(delta) < 3
			if (sig != c.wantSig && !noise) || delta < c.minDeltaPct {
				t.Fatalf("p95 change %.1f%% significant=%v, want significant=%v", delta, sig, c.wantSig)
			}
			var text bytes.Buffer
			code, err := Compare(CompareConfig{Runs: []string{base, c.other}, Out: &text, Gates: c.gates})
			if err != nil || code != c.wantCode {
				t.Fatalf("gate exit %d err %v, want %d\n%s", code, err, c.wantCode, text.String())
			}
		})
	}
}

func TestCompareRefusesBadGates(t *testing.T) {
	code, err := Compare(CompareConfig{Runs: []string{"a", "b"}, Out: &bytes.Buffer{}, Gates: []string{"p(95) +banana"}})
	if err == nil || code != ExitBadInput {
		t.Fatalf("exit %d err %v, want a bad-input refusal", code, err)
	}
}
