package metrics

import (
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/sample"
)

func TestSinksCountManyDropsAtOnce(t *testing.T) {
	c := NewCounter(2)
	dc, ok := c.Sink(1).(sample.DropCounter)
	if !ok {
		t.Fatal("the counter's sink is not a sample.DropCounter")
	}
	dc.DroppedN(0, 0, 1e15)
	c.Sink(1).Dropped(0, 0)
	if _, _, d := c.Totals(); d != 1e15+1 {
		t.Fatalf("dropped %d, want 1e15+1", d)
	}
	layout := sample.Layout{Scenarios: []sample.ScenarioInfo{{Name: "s"}}}
	rec := NewRecorder(layout, 2)
	rdc, ok := rec.Sink(0).(sample.DropCounter)
	if !ok {
		t.Fatal("the recorder's sink is not a sample.DropCounter")
	}
	rdc.DroppedN(0, 500*time.Millisecond, 7e12)
	rec.Sink(1).Dropped(0, 600*time.Millisecond)
	if got := rec.Collect(1).Scenarios[0].Dropped; got != 7e12+1 {
		t.Fatalf("snapshot has %d dropped, want 7e12+1", got)
	}
}
