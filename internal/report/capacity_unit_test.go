package report

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/loadlens/loadlens/internal/capacity"
)

// TestCapacityInItsUnit: a gRPC test's search (capacity's calls.json) is
// written in calls, on the terminal and on capacity.html: its rates in
// calls/s, its USL and thin steps in calls, and which latency its p95 is of.
// Before, both said req/s and requests whatever the test's protocol.
func TestCapacityInItsUnit(t *testing.T) {
	var r capacity.Result
	search(t, "calls", &r)
	text, page := capacityPages(t, r)
	visible := regexp.MustCompile(`(?s)<script.*?</script>|<style.*?</style>`).ReplaceAllString(page, "") // web's shared scripts speak of requests
	for _, s := range []string{text, visible} {
		if strings.Contains(s, "req/s") || strings.Contains(s, "request") {
			t.Errorf("a search of gRPC calls says req/s or requests:\n%s", s)
		}
	}
	for _, want := range []string{"105 iterations/s, 95 calls/s", "iter/s calls/s p95", "calls/s: calls completed per second of the hold; p95, p99: grpc_req_duration", "held 43 calls"} {
		if !strings.Contains(text, want) {
			t.Errorf("the text does not say %q:\n%s", want, text)
		}
	}
	for _, want := range []string{"<th class=\"num\">done calls/s</th>", "throughput is calls completed per second (calls/s)", "latency is the SLO's, grpc_req_duration", `"per_second":"calls/s"`} {
		if !strings.Contains(page, want) {
			t.Errorf("capacity.html does not say %q", want)
		}
	}
	var b bytes.Buffer
	if err := WriteCapacityText(&b, r); err != nil {
		t.Fatal(err)
	}
	golden(t, "capacity-calls.txt", b.Bytes())
}
