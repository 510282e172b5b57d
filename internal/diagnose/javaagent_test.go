package diagnose

import (
	"strings"
	"testing"
)

// TestJavaAgentRun: a run of a real JVM under the OpenTelemetry Java agent
// (testdata/java): the N+1 endpoint is n-plus-one, the one waiting on a
// 300 ms dependency is trace-http-tail, and the tail of the one whose
// count(*) and page query share a span name names the count(*) (issue 20:
// "SELECT owners" read as one).
func TestJavaAgentRun(t *testing.T) {
	_, fs := diagnoseRunDB(t, "testdata/corpus/java-agent.db")
	for _, tc := range []struct {
		kind, endpoint, title string
	}{
		{KindNPlusOne, "GET /reviews", "GET /reviews: 20 calls of select a.id, a.name from author a where a.id = ? per request, "},
		{KindTraceHTTPTail, "GET /price", "p95 of GET /price is "},
		{KindTraceDBTail, "GET /owners", "p95 of GET /owners is "},
	} {
		var got []string
		for _, f := range findingsOf(fs, tc.kind) {
			if s := title(f); strings.Contains(s, tc.endpoint) {
				got = append(got, s)
			}
		}
		if len(got) != 1 || !strings.HasPrefix(got[0], tc.title) {
			t.Errorf("%s on %s: %q", tc.kind, tc.endpoint, got)
		}
		for _, f := range findingsOf(fs, tc.kind) {
			if s := title(f); !strings.Contains(s, tc.endpoint) && tc.kind != KindTraceDBTail {
				t.Errorf("%s also on another endpoint: %s", tc.kind, s)
			}
		}
	}
	for _, f := range findingsOf(fs, KindTraceDBTail) {
		if s := title(f); strings.Contains(s, "GET /owners") && !strings.HasSuffix(s, ": select count(*) from owners o where o.last_name like ?") {
			t.Errorf("the tail of GET /owners is not named by its statement: %s", s)
		}
	}
}
