package runs

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/app"
	"github.com/loadlens/loadlens/internal/plan"
)

// TestExportAddsUpToTheSummary runs a test that fails some requests and
// drops iterations (one VU for a rate it cannot keep), exports its seconds
// as JSONL and CSV, and sums them: equal to summary.json's totals.
func TestExportAddsUpToTheSummary(t *testing.T) {
	var n atomic.Int64
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1)%4 == 0 {
			http.Error(w, "busy", http.StatusServiceUnavailable)
		}
		time.Sleep(40 * time.Millisecond) // a slow target, so that one VU cannot keep the rate
	}))
	defer target.Close()
	p, err := plan.Parse("t.yaml", []byte(fmt.Sprintf(`
base_url: %s
scenarios:
  s:
    rate: 40
    duration: 2s
    max_vus: 1
    flow:
      - get: /a
      - get: /b
`, target.URL)), nil)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := app.Run(ctx, app.RunConfig{Plan: p, ResultsDir: t.TempDir(), Out: &out, Quiet: true, Version: "test"})
	if err != nil {
		t.Fatalf("Run: %v\n%s", err, out.String())
	}
	b, err := os.ReadFile(filepath.Join(res.Dir, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var sum struct {
		Metrics  map[string]map[string]float64 `json:"metrics"`
		Loadlens struct {
			FailuresByKind map[string]int64 `json:"failures_by_kind"`
		} `json:"loadlens"`
	}
	if err := json.Unmarshal(b, &sum); err != nil {
		t.Fatal(err)
	}
	want := map[string]int64{
		"requests": int64(sum.Metrics["http_reqs"]["count"]), "http_5xx": sum.Loadlens.FailuresByKind["http_5xx"],
		"iterations": int64(sum.Metrics["iterations"]["count"]), "dropped": int64(sum.Metrics["dropped_iterations"]["count"]),
	}
	if want["http_5xx"] == 0 || want["dropped"] == 0 || want["requests"] != n.Load() {
		t.Fatalf("the run should fail some requests and drop some iterations: %v (target saw %d)", want, n.Load())
	}

	var jsonl bytes.Buffer
	if err := Export(ExportConfig{Run: res.Dir, Format: "jsonl", W: &jsonl}); err != nil {
		t.Fatal(err)
	}
	got := map[string]int64{}
	for i, line := range strings.Split(strings.TrimSpace(jsonl.String()), "\n") {
		var row struct {
			Type                 string
			Requests, Iterations int64
			Dropped              int64                  `json:"dropped_iterations"`
			Failures             map[string]int64       `json:"failures_by_kind"`
			Duration             *struct{ P95 float64 } `json:"duration_ms"`
		}
		if err := json.Unmarshal([]byte(line), &row); err != nil {
			t.Fatalf("line %d: %v: %s", i+1, err, line)
		}
		got["requests"] += row.Requests
		got["http_5xx"] += row.Failures["http_5xx"]
		got["iterations"] += row.Iterations
		got["dropped"] += row.Dropped
		if row.Type == "endpoint" && row.Requests > 0 && (row.Duration == nil || row.Duration.P95 < 40) {
			t.Errorf("line %d: a second with requests to a 40 ms target has p95 %v", i+1, row.Duration)
		}
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("JSONL adds to %v, summary.json says %v", got, want)
	}

	file := filepath.Join(t.TempDir(), "seconds.csv")
	if err := Export(ExportConfig{Run: res.Dir, Format: "csv", Out: file}); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	got = map[string]int64{}
	for _, r := range rows[1:] {
		for key, name := range map[string]string{"requests": "requests", "http_5xx": "failed_http_5xx", "iterations": "iterations", "dropped": "dropped_iterations"} {
			if r[col[name]] != "" {
				v, err := strconv.ParseInt(r[col[name]], 10, 64)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				got[key] += v
			}
		}
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("CSV adds to %v, summary.json says %v", got, want)
	}
	if err := Export(ExportConfig{Run: res.Dir, Format: "xml", W: &jsonl}); app.ExitCodeOf(err) != app.ExitBadInput {
		t.Errorf("--format xml: %v (exit %d), want a usage error", err, app.ExitCodeOf(err))
	}
}
