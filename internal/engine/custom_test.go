package engine

import (
	"fmt"
	"math"
	"net/http/httptest"
	"testing"

	"github.com/loadlens/loadlens/internal/plan"
)

// TestAddToCustomMetrics: add: steps render their values from the
// iteration's variables and record them on their series; a value that is
// not a number reaches the sink as NaN, and a setup's adds none.
func TestAddToCustomMetrics(t *testing.T) {
	s := &shop{}
	srv := httptest.NewServer(s)
	defer srv.Close()
	src := fmt.Sprintf(`base_url: %s
metrics:
  orders: counter
  sized: rate
  cart: trend
setup:
  - get: /login
  - add: {orders: 100}
scenarios:
  s:
    iterations: 3
    vus: 1
    flow:
      - get: "/cart?n={{ iteration }}"
        extract: {size: {json: $.size}}
      - add: {orders: 2, sized: "{{ size }}", cart: "{{ size }}"}
      - add: {cart: "x{{ size }}"}
`, srv.URL)
	p, err := plan.Parse("t.yaml", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	rec, _ := runPlan(t, p, Options{})
	if got := rec.added[0]; fmt.Sprint(got) != "[2 2 2]" {
		t.Errorf("orders: %v, want [2 2 2] (the setup's 100 not measured)", got)
	}
	if got := rec.added[1]; fmt.Sprint(got) != "[0 1 2]" {
		t.Errorf("sized: %v, want [0 1 2] (a rate counts the non-zero ones)", got)
	}
	cart := rec.added[2]
	if len(cart) != 6 {
		t.Fatalf("cart: %v, want 6 values", cart)
	}
	nan := 0
	for _, v := range cart {
		if math.IsNaN(v) {
			nan++
		}
	}
	if nan != 3 {
		t.Errorf("cart: %v, want the three x-prefixed values as NaN", cart)
	}
}
