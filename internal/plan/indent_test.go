package plan

import (
	"errors"
	"strings"
	"testing"

	"github.com/loadlens/loadlens/internal/yamldoc"
)

// TestMisindentedKeyNamesItsLine: a key indented deeper than the key above
// it, whose value is a plain scalar, made the YAML library point at that
// value, one line up (a trial saw "6:15" for a bad "flow:" on line 7).
// Each case marks its bad line with "# bad"; the error must name it, at
// the misplaced key.
func TestMisindentedKeyNamesItsLine(t *testing.T) {
	tests := []struct {
		name string
		src  string
		col  int
		msg  string // the error's end
	}{
		{"flow under a scenario", `base_url: http://127.0.0.1:8080
scenarios:
  s:
    rate: 1
    duration: 1s
     flow:  # bad
      - get: /
`, 6, "mapping value is not allowed in this context (line 6 is indented under \"duration\" on line 5, which has a value: line 6 too deep, or line 5 too shallow?)"},
		{"load key under a scenario", `base_url: http://127.0.0.1:8080
scenarios:
  s:
    rate: 1
      duration: 1s  # bad
    flow:
      - get: /
`, 7, "mapping value is not allowed in this context (line 5 is indented under \"rate\" on line 4, which has a value: line 5 too deep, or line 4 too shallow?)"},
		{"a step's key", `base_url: http://127.0.0.1:8080
scenarios:
  s:
    rate: 1
    duration: 1s
    flow:
      - get: /
          name: x  # bad
`, 11, "mapping value is not allowed in this context (line 8 is indented under \"get\" on line 7, which has a value: line 8 too deep, or line 7 too shallow?)"},
		{"a step's key, less indented", `base_url: http://127.0.0.1:8080
scenarios:
  s:
    rate: 1
    duration: 1s
    flow:
      - get: /
       name: x  # bad
`, 8, `value is not allowed in this context (indented 7 spaces where "get" on line 7 is at 8: indented too little?)`},
		{"a threshold", `base_url: http://127.0.0.1:8080
thresholds:
  http_req_failed: rate<0.01
    http_reqs: count>1  # bad
scenarios:
  s: {rate: 1, duration: 1s, flow: [get: /]}
`, 5, "mapping value is not allowed in this context (line 4 is indented under \"http_req_failed\" on line 3, which has a value: line 4 too deep, or line 3 too shallow?)"},
		{"a threshold after a list", `base_url: http://127.0.0.1:8080
thresholds:
  http_req_failed: ["rate<0.01"]
   http_reqs: ["count>1"]  # bad
scenarios:
  s: {rate: 1, duration: 1s, flow: [get: /]}
`, 4, `value is not allowed in this context (indented 3 spaces where "http_req_failed" on line 3 is at 2: indented too deep?)`},
		{"an observe target", `base_url: http://127.0.0.1:8080
observe:
  targets:
    - url: http://127.0.0.1:9100/metrics
        name: node  # bad
scenarios:
  s: {rate: 1, duration: 1s, flow: [get: /]}
`, 9, "mapping value is not allowed in this context (line 5 is indented under \"url\" on line 4, which has a value: line 5 too deep, or line 4 too shallow?)"},
		{"a dedented load key", `base_url: http://127.0.0.1:8080
scenarios:
  s:
    rate: 1
  duration: 1s
    flow:  # bad
      - get: /
`, 5, "mapping value is not allowed in this context (line 6 is indented under \"duration\" on line 5, which has a value: line 6 too deep, or line 5 too shallow?)"},
		{"a top-level key", `base_url: http://127.0.0.1:8080
name: t
  timeout: 2s  # bad
scenarios:
  s: {rate: 1, duration: 1s, flow: [get: /]}
`, 3, "mapping value is not allowed in this context (indented too deep?)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			bad := 0
			for i, l := range strings.Split(tc.src, "\n") {
				if strings.HasSuffix(l, "# bad") {
					bad = i + 1
				}
			}
			_, err := Parse("t.yaml", []byte(tc.src), nil)
			var errs yamldoc.Errors
			if !errors.As(err, &errs) || len(errs) == 0 {
				t.Fatalf("no error: %v", err)
			}
			if e := errs[0]; e.Line != bad || e.Column != tc.col || !strings.HasSuffix(e.Msg, tc.msg) {
				t.Errorf("got %v; want line %d column %d and %q", err, bad, tc.col, tc.msg)
			}
		})
	}
}
