package k6

import (
	"strings"
	"testing"

	"github.com/loadlens/loadlens/internal/importer"
)

// TestImportArrivalRateCapsVUs: in k6 an arrival-rate scenario's maxVUs
// defaults to preAllocatedVUs; without max_vus loadlens would start up to
// its own cap (19,936 VUs for s2.js's 10 pre-allocated).
func TestImportArrivalRateCapsVUs(t *testing.T) {
	const head = "import http from 'k6/http';\nexport const options = {scenarios: {s: "
	const tail = "}};\nexport default function () { http.get('http://h/x'); }"
	for _, c := range []struct{ name, scenario, want string }{
		{"ramping, no maxVUs", "{executor: 'ramping-arrival-rate', startRate: 1, timeUnit: '1s', preAllocatedVUs: 10, stages: [{target: 20, duration: '30s'}]}", "max_vus: 10"},
		{"constant, no maxVUs", "{executor: 'constant-arrival-rate', rate: 5, duration: '10s', preAllocatedVUs: 7}", "max_vus: 7"},
		{"ramping, maxVUs given", "{executor: 'ramping-arrival-rate', startRate: 1, preAllocatedVUs: 10, maxVUs: 50, stages: [{target: 20, duration: '30s'}]}", "max_vus: 50"},
		{"constant, maxVUs given", "{executor: 'constant-arrival-rate', rate: 5, duration: '10s', preAllocatedVUs: 7, maxVUs: 9}", "max_vus: 9"},
	} {
		t.Run(c.name, func(t *testing.T) {
			tst, err := Import([]byte(head+c.scenario+tail), "s.js")
			if err != nil {
				t.Fatal(err)
			}
			out, err := importer.Render(tst, "t.yaml")
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			if n := strings.Count(string(out), "max_vus:"); n != 1 || !strings.Contains(string(out), c.want+"\n") {
				t.Errorf("%d max_vus, want one %q:\n%s", n, c.want, out)
			}
		})
	}
}
