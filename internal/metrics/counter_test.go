package metrics

import (
	"sync"
	"testing"

	"github.com/loadlens/loadlens/internal/sample"
)

func TestCounterCountsAcrossShards(t *testing.T) {
	c := NewCounter(4)
	var wg sync.WaitGroup
	for vu := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := c.Sink(vu)
			for i := range 1000 {
				r := sample.Request{}
				if i%10 == 0 {
					r.Kind = sample.HTTP5xx
				}
				s.Request(&r)
			}
			s.Dropped(0, 0)
		}()
	}
	wg.Wait()
	if req, failed, dropped := c.Totals(); req != 8000 || failed != 800 || dropped != 8 {
		t.Fatalf("totals %d %d %d, want 8000 800 8", req, failed, dropped)
	}
}
