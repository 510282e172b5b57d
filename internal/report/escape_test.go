package report

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/sample"
)

// TestTargetTextIsEscaped: an error sample the target wrote (its reason
// phrase, with a clear-screen, a set-title and a carriage return) reaches
// the terminal summary escaped, and neither it nor the Markdown summary raw.
func TestTargetTextIsEscaped(t *testing.T) {
	const reason = "500 <b>\x1b[2J\x1b]0;pwned\x07\rok\x9b\x7f"
	layout := sample.Layout{Scenarios: []sample.ScenarioInfo{{Name: "default", Model: "vus"}},
		Endpoints: []sample.EndpointInfo{{Scenario: 0, Name: "GET /x", Method: "GET"}}}
	rec := metrics.NewRecorder(layout, 1)
	rec.Sink(0).Request(&sample.Request{End: time.Second, Duration: time.Millisecond, Status: 500, Kind: sample.HTTP5xx, Err: reason})
	run := metrics.NewRun(layout)
	run.Add(rec.Collect(0))
	run.Add(rec.Collect(1))
	run.SetElapsed(2 * time.Second)
	in := &Input{Name: "evil", Status: "completed", Run: run}
	for _, c := range []struct {
		name  string
		write func(*bytes.Buffer) error
	}{
		{"terminal", func(b *bytes.Buffer) error { return WriteText(b, in) }},
		{"markdown", func(b *bytes.Buffer) error { _, err := b.Write(Markdown(in)); return err }},
	} {
		var b bytes.Buffer
		if err := c.write(&b); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		if i := strings.IndexFunc(out, func(r rune) bool { return r < 0x20 && r != '\n' || r == 0x7f || r == 0xfffd }); i >= 0 {
			t.Errorf("%s: a control character %q reached the output at %d:\n%q", c.name, out[i], i, out)
		}
		if c.name == "terminal" && !strings.Contains(out, `\x1b[2J\x1b]0;pwned\a\rok\x9b\x7f`) {
			t.Errorf("%s: the sample is not shown escaped:\n%s", c.name, out)
		}
	}
}
