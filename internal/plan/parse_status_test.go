package plan

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestParseStatusThresholds: the statuses thresholds name are kept in
// the layout, once each and sorted; a test without one keeps none; more
// than maxStatuses is an error at the key.
func TestParseStatusThresholds(t *testing.T) {
	src := head + getX + "thresholds:\n  'http_req_duration{status:503}': [\"p(95)<1s\"]\n  'http_reqs{status:200}': [\"count>1\"]\n  'http_reqs{status:503}': [\"count<5\"]\n"
	p, err := Parse("t.yaml", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := p.Layout.Statuses; !slices.Equal(got, []int{200, 503}) {
		t.Errorf("statuses kept %v, want [200 503]", got)
	}
	if p, err := Parse("t.yaml", []byte(head+getX), nil); err != nil || p.Layout.Statuses != nil {
		t.Errorf("a test without status thresholds keeps %v (%v)", p.Layout.Statuses, err)
	}
	var b strings.Builder
	b.WriteString(head + getX + "thresholds:\n")
	for i := range maxStatuses + 1 {
		fmt.Fprintf(&b, "  'http_reqs{status:%d}': [\"count>0\"]\n", 200+i)
	}
	_, err = Parse("t.yaml", []byte(b.String()), nil)
	if want := "t.yaml:25:3: thresholds.http_reqs{status:216}: thresholds name at most 16 statuses"; err == nil || err.Error() != want {
		t.Errorf("error %v, want %s", err, want)
	}
}
