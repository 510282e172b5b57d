package diagnose

import (
	"strings"
	"testing"
	"time"
)

// TestOneVUIsSingular: the healthy statement of a one-VU run says "1 VU".
func TestOneVUIsSingular(t *testing.T) {
	for _, c := range []struct {
		vus       int64
		want, not string
	}{
		{1, "with 1 VU (at ", "1 VUs"},
		{20, "with 20 VUs (at ", "20 VU "},
	} {
		run := build(t, layout(modelVUs, "GET /x"), steady(11, 200, c.vus, 5*time.Millisecond))
		in := Input{Run: run}
		got := healthyText(in, Diagnose(in))
		if !strings.Contains(got, c.want) || strings.Contains(got, c.not) {
			t.Errorf("%d VUs: %q, want %q", c.vus, got, c.want)
		}
	}
}
