package report

import (
	"strings"
	"testing"
)

// TestOutputWarningsCountInWords: the lost seconds of an output read in
// the right number, noun and verb.
func TestOutputWarningsCountInWords(t *testing.T) {
	for _, tc := range []struct {
		dropped, offered int64
		want             string
	}{
		{1, 1, "1 of 1 second was not delivered"},
		{1, 5, "1 of 5 seconds was not delivered"},
		{3, 5, "3 of 5 seconds were not delivered"},
	} {
		in := &Input{Outputs: []OutputResult{{Output: "influxdb=http://127.0.0.1:8086", Offered: tc.offered, Dropped: tc.dropped, Reason: "queue full"}}}
		if got := strings.Join(OutputWarnings(in), "\n"); !strings.Contains(got, tc.want) {
			t.Errorf("%d of %d: %q, want %q", tc.dropped, tc.offered, got, tc.want)
		}
	}
}
