package plan

import (
	"strings"
	"testing"
)

// TestStatusListCheckName checks a status list's default check name and
// that a threshold may still name it as earlier versions did.
func TestStatusListCheckName(t *testing.T) {
	const test = `
base_url: http://h
scenarios:
  s:
    vus: 1
    duration: 1s
    flow:
      - post: /coupons
        check: [{status: [201, 409]}]
thresholds:
  'checks{check:"%s"}': "rate == 1"
`
	tests := []struct {
		name, key string
		wantKey   string // the threshold's key once parsed; "" for an error
	}{
		{"today's name", "status in [201, 409]", `checks{check:"status in [201, 409]"}`},
		{"the name before, as an alias", "status in [201 409]", `checks{check:"status in [201, 409]"}`},
		{"another list is no alias", "status in [201 404]", ""},
		{"not a status list", "status is 201", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Parse("t.yaml", []byte(strings.Replace(test, "%s", tt.key, 1)), nil)
			if tt.wantKey == "" {
				if err == nil || !strings.Contains(err.Error(), `unknown check "`+tt.key+`"`) {
					t.Errorf("err = %v, want an unknown check %q", err, tt.key)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := p.Layout.Checks[0].Name; got != "status in [201, 409]" {
				t.Errorf("check name = %q, want %q", got, "status in [201, 409]")
			}
			if len(p.Thresholds) != 1 || p.Thresholds[0].Key != tt.wantKey {
				t.Fatalf("thresholds = %+v, want one keyed %s", p.Thresholds, tt.wantKey)
			}
			if f := p.Thresholds[0].Filter; len(f) != 1 || f[0].Value != "status in [201, 409]" {
				t.Errorf("filter = %+v, want the check's name", f)
			}
		})
	}
}
