package report

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/capacity"
)

func TestCapacityHTML(t *testing.T) {
	r := capacity.Result{Highest: 195, LowestFailing: 200, Stop: capacity.Converged, Knee: &capacity.Knee{Rate: 190},
		Steps: []capacity.Record{
			{StepResult: capacity.StepResult{Rate: 100, Throughput: 100, P95: 20 * time.Millisecond, P99: 22 * time.Millisecond, Passed: true}, Phase: capacity.Raise},
			{StepResult: capacity.StepResult{Rate: 200, Throughput: 199, P95: 300 * time.Millisecond, P99: 400 * time.Millisecond,
				FailedThresholds: []string{`http_req_duration: p(95) < 80ms (p(95)=300ms) </script><b>`}}, Phase: capacity.Raise},
		}}
	var b bytes.Buffer
	if err := WriteCapacityHTML(&b, r, `shop<img src=x>`, 80*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, want := range []string{"Content-Security-Policy", "195 iterations/s", `"slo":80`, `"knee":190`, "shop&lt;img src=x&gt;", "&lt;/script&gt;&lt;b&gt;"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if strings.Contains(page, "<img src=x>") || strings.Count(page, "</script>") != strings.Count(page, "<script") {
		t.Error("markup from the run reached the page unescaped")
	}
}
