package capacity

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

func TestWriteHTML(t *testing.T) {
	r := Result{Highest: 195, LowestFailing: 200, Stop: Converged, Knee: &Knee{Rate: 190},
		Steps: []Record{
			{StepResult: StepResult{Rate: 100, Throughput: 100, P95: 20 * time.Millisecond, P99: 22 * time.Millisecond, Passed: true}, Phase: Raise},
			{StepResult: StepResult{Rate: 200, Throughput: 199, P95: 300 * time.Millisecond, P99: 400 * time.Millisecond,
				FailedThresholds: []string{`http_req_duration: p(95) < 80ms (p(95)=300ms) </script><b>`}}, Phase: Raise},
		}}
	var b bytes.Buffer
	if err := WriteHTML(&b, r, `shop<img src=x>`, 80*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, want := range []string{"Content-Security-Policy", "195/s", `"slo":80`, `"knee":190`, "shop&lt;img src=x&gt;", "&lt;/script&gt;&lt;b&gt;"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if strings.Contains(page, "<img src=x>") || strings.Count(page, "</script>") != strings.Count(page, "<script") {
		t.Error("markup from the run reached the page unescaped")
	}
}
