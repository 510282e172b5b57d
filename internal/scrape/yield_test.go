package scrape

import (
	"bytes"
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

func TestYieldingReaderPausesAndChangesNothing(t *testing.T) {
	var b strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&b, "node_cpu_seconds_total{cpu=\"%d\",mode=\"idle\"} %d.5\n", i, i)
	}
	body := []byte(b.String())
	tests := []struct {
		name string
		body []byte
	}{
		{"a large exposition", body},
		{"a small one", body[:bytes.IndexByte(body[100:], '\n')+101]},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pauses := 0
			y := &yieldingReader{r: bytes.NewReader(tt.body), pause: func() { pauses++ }}
			p := expfmt.NewTextParser(model.UTF8Validation)
			got, err := p.TextToMetricFamilies(y)
			if err != nil {
				t.Fatal(err)
			}
			want, err := parse(context.Background(), tt.body)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatal("the families parsed through the pauses differ from a plain parse")
			}
			// A pause before each yieldEvery bytes after the first; reads may overshoot a little.
			if most, least := len(tt.body)/yieldEvery, max(len(tt.body)/yieldEvery-1, 0); pauses > most || pauses < least {
				t.Fatalf("%d pauses for %d bytes, want %d–%d (one per %d bytes)", pauses, len(tt.body), least, most, yieldEvery)
			}
		})
	}
}
