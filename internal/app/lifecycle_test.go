package app

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// TestRunBeside: the others run until lead returns, whether lead ends by
// itself or by ctx, and then stop; their errors come back beside lead's.
func TestRunBeside(t *testing.T) {
	leadErr := errors.New("lead failed")
	cases := []struct {
		name   string
		cancel bool // ctx ends (Ctrl-C) before lead is done
	}{
		{"lead ends by itself", false},
		{"ctx ends lead", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			started := make(chan struct{}, 2)
			var stoppedAfterLead [2]bool
			leadDone := make(chan struct{})
			other := func(i int) part {
				return func(ctx context.Context) error {
					started <- struct{}{}
					<-ctx.Done()
					select {
					case <-leadDone:
						stoppedAfterLead[i] = true
					default:
					}
					return errors.New("other " + string(rune('A'+i)))
				}
			}
			lead := func(ctx context.Context) error {
				<-started
				<-started
				if c.cancel {
					cancel()
					<-ctx.Done()
				}
				close(leadDone)
				return leadErr
			}
			done := make(chan struct{})
			var gotLead, gotOthers error
			go func() {
				defer close(done)
				gotLead, gotOthers = runBeside(ctx, lead, other(0), other(1))
			}()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("runBeside did not return within 10s")
			}
			if gotLead != leadErr || gotOthers == nil || !strings.Contains(gotOthers.Error(), "other A") || !strings.Contains(gotOthers.Error(), "other B") {
				t.Errorf("errors %v and %v, want lead's and both others'", gotLead, gotOthers)
			}
			if !stoppedAfterLead[0] || !stoppedAfterLead[1] {
				t.Errorf("the others stopped before lead returned: %v", stoppedAfterLead)
			}
		})
	}
}

func TestCleanupsRunLastFirstOnce(t *testing.T) {
	var order []int
	var c cleanups
	for i := range 3 {
		c.add(func() { order = append(order, i) })
	}
	c.run()
	c.run()
	if len(order) != 3 || order[0] != 2 || order[1] != 1 || order[2] != 0 {
		t.Errorf("cleanups ran %v, want [2 1 0] once", order)
	}
}
