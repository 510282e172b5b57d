package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCustomMetricsThroughTheBinary: values extracted from responses are
// added to a counter, a rate and a trend declared in the test; thresholds
// in k6's syntax gate the run on them (exit 99 when one fails), and the
// summary and summary.json show them like built-in metrics.
func TestCustomMetricsThroughTheBinary(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `{"size": 3, "in_stock": true}`)
	}))
	defer srv.Close()
	dir := t.TempDir()
	test := `name: custom
base_url: %s
metrics:
  cart_items: counter
  in_stock: rate
  cart_size: trend
scenarios:
  shop:
    iterations: 10
    vus: 2
    flow:
      - get: /cart
        extract:
          size: {json: $.size}
          stock: {json: $.in_stock}
      - add: {cart_items: "{{ size }}", in_stock: "{{ stock }}", cart_size: "{{ size }}"}
thresholds:
  cart_items: ["count == 30"]
  in_stock: ["rate > 0.99"]
  cart_size: ["%s"]
`
	for _, tc := range []struct {
		expr string
		code int
	}{{"p(95) <= 3", 0}, {"avg < 2", 99}} {
		os.WriteFile(filepath.Join(dir, "t.yaml"), []byte(fmt.Sprintf(test, srv.URL, tc.expr)), 0o644)
		results := "results-" + fmt.Sprint(tc.code)
		res := loadlens(t, dir, "run", "t.yaml", "--results", results)
		if res.code != tc.code {
			t.Fatalf("cart_size %s: exit %d, want %d\n%s%s", tc.expr, res.code, tc.code, res.stdout, res.stderr)
		}
		for _, want := range []string{"cart_items", "counter", "total 30", "in_stock", "100.00% true (10 of 10)", "cart_size", "trend"} {
			if !strings.Contains(res.stdout, want) {
				t.Errorf("the summary does not show %q:\n%s", want, res.stdout)
			}
		}
		b, err := os.ReadFile(filepath.Join(onlyRunDir(t, filepath.Join(dir, results)), "summary.json"))
		if err != nil {
			t.Fatal(err)
		}
		var sum struct {
			Metrics map[string]map[string]any `json:"metrics"`
		}
		if err := json.Unmarshal(b, &sum); err != nil {
			t.Fatal(err)
		}
		if m := sum.Metrics; m["cart_items"]["count"] != float64(30) || m["in_stock"]["rate"] != float64(1) || m["cart_size"]["avg"] != float64(3) {
			t.Errorf("summary.json's custom metrics: %v %v %v", m["cart_items"], m["in_stock"], m["cart_size"])
		}
	}
	// the summary read back from run.db judges the thresholds on the test's own metrics too
	res := loadlens(t, dir, "summary", onlyRunDir(t, filepath.Join(dir, "results-99")))
	if !strings.Contains(res.stdout, "cart_size") || !strings.Contains(res.stdout, "avg=3") {
		t.Errorf("summary of a stored run:\n%s%s", res.stdout, res.stderr)
	}
}
