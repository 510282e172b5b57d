package report

import "testing"

func TestVUsPhraseSaysTheBusyPeakOfAPool(t *testing.T) {
	cases := []struct {
		allocated, busy int64
		want            string
	}{
		{50, 1, "50 VUs (1 busy)"},
		{50, 50, "50 VUs"},
		{1, 1, "1 VU"},
		{2217, 0, "2,217 VUs"},
	}
	for _, c := range cases {
		if got := vusPhrase(c.allocated, c.busy); got != c.want {
			t.Errorf("vusPhrase(%d, %d) = %q, want %q", c.allocated, c.busy, got, c.want)
		}
	}
}
