package diagnose

import (
	"strings"
	"testing"
)

// TestRealJVMRuns: runs of real JVMs under the OpenTelemetry Java agent
// 2.10.0 (testdata/java/README.md): a Tomcat probe, and truthapp (Spring
// Boot 4, Hibernate, Spring Cache on Redis; bench/truth) with its
// n-plus-one, cache-miss and 300 ms pricing faults on, and without them
// (a 5 ms pricing service). Each rule fires on its fault's endpoint and
// nowhere else; the healthy run raises none of them. The probe's GET
// /owners tail is named by its count(*) statement, which shares its span
// name with the page query (issue 20: "SELECT owners" read as one).
func TestRealJVMRuns(t *testing.T) {
	for _, tc := range []struct {
		file string
		want map[string]string // kind → the start of its one title; a kind not listed must not fire
	}{
		{"java-agent", map[string]string{
			KindNPlusOne:      "GET /reviews: 20 calls of select a.id, a.name from author a where a.id = ? per request, ",
			KindTraceHTTPTail: "p95 of GET /price is ",
			KindTraceDBTail:   "p95 of GET /owners is ",
		}},
		{"truthapp-faults", map[string]string{
			KindNPlusOne:      "GET /apps/{id}/reviews: 20 calls of select a1_0.id,a1_0.name from author a1_0 where a1_0.id=? per request, ",
			KindTraceHTTPTail: "p95 of GET /apps/{id}/price is ",
			KindCacheMiss:     "Cache apps hit 0% of ",
			KindTraceDBTail:   "p95 of GET /apps/{id}/reviews is ",
		}},
		{"truthapp-healthy", map[string]string{}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			_, fs := diagnoseRunDB(t, "testdata/corpus/"+tc.file+".db")
			for _, k := range []string{KindNPlusOne, KindTraceHTTPTail, KindCacheMiss, KindTraceDBTail} {
				got := findingsOf(fs, k)
				want, fires := tc.want[k]
				switch {
				case !fires && len(got) > 0:
					t.Errorf("%s fired: %s", k, titles(got))
				case fires && (len(got) != 1 || !strings.HasPrefix(title(got[0]), want)):
					t.Errorf("%s: %s; want one, %q…", k, titles(got), want)
				}
			}
			if tc.file != "java-agent" {
				return
			}
			if s := title(findingsOf(fs, KindTraceDBTail)[0]); !strings.HasSuffix(s, ": select count(*) from owners o where o.last_name like ?") {
				t.Errorf("the tail of GET /owners is not named by its statement: %s", s)
			}
		})
	}
}
