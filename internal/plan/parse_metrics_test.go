package plan

import (
	"errors"
	"testing"

	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/threshold"
	"github.com/loadlens/loadlens/internal/yamldoc"
)

// metricsHead declares one metric of each kind before the scenarios.
const metricsHead = `metrics:
  orders: counter
  in_stock: rate
  cart_size: trend
  checkout_time: {type: trend, time: true}
` + head

// TestParseCustomMetrics: add: steps name declared metrics, one series
// per metric and scenario, and thresholds judge them in k6's syntax.
func TestParseCustomMetrics(t *testing.T) {
	src := metricsHead + getX + `        extract: {n: {json: $.n}}
      - add: {orders: 1, cart_size: "{{ n }}", in_stock: true}
      - group: g
        steps:
          - get: /y
          - add: {orders: "{{ n }}", checkout_time: 12.5}
thresholds:
  orders: ["count > 10"]
  in_stock: ["rate > 0.9"]
  cart_size{scenario:s}: ["p(95) < 20"]
  checkout_time: ["p(95) < 2s"]
`
	p, err := Parse("t.yaml", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []sample.MetricInfo{
		{Scenario: 0, Name: "orders", Kind: sample.CounterMetric},
		{Scenario: 0, Name: "cart_size", Kind: sample.TrendMetric},
		{Scenario: 0, Name: "in_stock", Kind: sample.RateMetric},
		{Scenario: 0, Name: "checkout_time", Kind: sample.TrendMetric, Time: true},
	}
	if got := p.Layout.Metrics; len(got) != len(want) {
		t.Fatalf("series %+v, want %+v", got, want)
	}
	for i, m := range p.Layout.Metrics {
		if m != want[i] {
			t.Errorf("series %d: %+v, want %+v", i, m, want[i])
		}
	}
	flow := p.Scenarios[0].Flow
	if flow[1].Kind != AddStep || len(flow[1].Block.Adds) != 3 || flow[1].Block.Adds[1].Series != 1 {
		t.Errorf("first add: step %+v", flow[1].Block)
	}
	if a := flow[2].Block.Steps[1].Block.Adds; len(a) != 2 || a[0].Series != 0 || a[1].Series != 3 {
		t.Errorf("the group's add: step shares the orders series: %+v", a)
	}
	if len(p.Thresholds) != 4 {
		t.Fatalf("%d thresholds, want 4", len(p.Thresholds))
	}
	if c := p.Thresholds[3].Custom; c == nil || !c.Time || p.Thresholds[3].Value != 2000 {
		t.Errorf("checkout_time threshold: %+v (custom %+v)", p.Thresholds[3], c)
	}
	if c := p.Thresholds[2].Custom; c == nil || c.Kind != threshold.Trend || p.Thresholds[2].Value != 20 {
		t.Errorf("cart_size threshold: %+v", p.Thresholds[2])
	}
}

func TestParseCustomMetricsInvalid(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"unknown type", "metrics:\n  orders: gauge\n" + head + getX,
			`2:11: metrics.orders: unknown metric type "gauge": counter, rate or trend (as k6's Counter, Rate, Trend)`},
		{"built-in name", "metrics:\n  checks: rate\n" + head + getX,
			`2:3: metrics.checks: metric "checks" is a built-in metric: name yours differently`},
		{"bad name", "metrics:\n  2x: rate\n" + head + getX,
			`2:3: metrics.2x: metric name "2x" may use letters, digits and _, not starting with a digit, at most 128 characters`},
		{"time on a counter", "metrics:\n  n: {type: counter, time: true}\n" + head + getX,
			`2:13: metrics.n.type: time: true is for a trend; a counter is not a time`},
		{"undeclared", metricsHead + getX + "      - add: {order: 1}\n",
			`13:15: scenarios.s.flow[1].add.order: metric "order" is not declared: declare it under the top-level metrics: key; did you mean "orders"? (declared: "orders", "in_stock", "cart_size", "checkout_time")`},
		{"not a number", metricsHead + getX + "      - add: {orders: lots}\n",
			`13:23: scenarios.s.flow[1].add.orders: "lots" is not a value for orders, a counter: a number`},
		{"trend out of range", metricsHead + getX + "      - add: {cart_size: -1}\n",
			`13:26: scenarios.s.flow[1].add.cart_size: "-1" is not a value for cart_size, a trend: a number from 0 to 60000`},
		{"unknown variable", metricsHead + getX + "      - add: {orders: \"{{ n }}\"}\n",
			`13:27: scenarios.s.flow[1].add.orders: unknown variable "n" (no variables are defined)`},
		{"threshold with no add", metricsHead + getX + "thresholds:\n  orders: [\"count>1\"]\n",
			`14:3: thresholds.orders: no scenario's flow adds to metric "orders" (an add: step): this threshold would have no data`},
		{"threshold unit on a plain trend", metricsHead + getX + "      - add: {cart_size: 1}\nthresholds:\n  cart_size: [\"p(95)<2s\"]\n",
			`15:23: thresholds.cart_size[0]: unexpected unit "s": p(N) of cart_size is a plain number`},
		{"threshold filter", metricsHead + getX + "      - add: {orders: 1}\nthresholds:\n  orders{name:x}: [\"count>1\"]\n",
			`15:10: thresholds.orders{name:x}: filter key "name" is not allowed for orders (allowed: scenario)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("t.yaml", []byte(tt.src), nil)
			var es yamldoc.Errors
			if !errors.As(err, &es) {
				t.Fatalf("error %v, want Errors", err)
			}
			if got, want := err.Error(), "t.yaml:"+tt.want; got != want {
				t.Errorf("errors:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}
