package abort

import (
	"testing"
	"time"
)

// fakeConn counts its Unblock calls.
type fakeConn struct{ unblocked int }

func (c *fakeConn) Unblock() { c.unblocked++ }

// TestGuard: Abort cancels a dial in progress and unblocks the connection
// in use; a dial after it is refused; without it neither happens.
func TestGuard(t *testing.T) {
	cases := []struct {
		name      string
		abort     string // when: "", "before", "dialing", "using"
		ok        bool   // Dial's
		cancelled bool   // the dial's context done before EndDial
		unblocked int
	}{
		{"no abort", "", true, false, 0},
		{"abort before the dial", "before", false, false, 0},
		{"abort during the dial", "dialing", true, true, 0},
		{"abort with a connection in use", "using", true, false, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var g Guard[fakeConn, *fakeConn]
			if tc.abort == "before" {
				g.Abort()
			}
			ctx, cancel, ok := g.Dial(time.Now().Add(time.Hour))
			if !g.Dialing() {
				t.Fatal("the dial is not published")
			}
			if tc.abort == "dialing" {
				g.Abort()
			}
			cancelled := ctx.Err() != nil
			g.EndDial(cancel)
			cn := &fakeConn{}
			g.Use(cn)
			if tc.abort == "using" {
				g.Abort()
			}
			g.Use(nil)
			if ok != tc.ok || cancelled != tc.cancelled || cn.unblocked != tc.unblocked || g.Dialing() || g.InUse() {
				t.Fatalf("ok %v, cancelled %v, unblocked %d, dialing %v, in use %v; want %v, %v, %d, false, false",
					ok, cancelled, cn.unblocked, g.Dialing(), g.InUse(), tc.ok, tc.cancelled, tc.unblocked)
			}
			if g.Aborted() != (tc.abort != "") {
				t.Fatalf("Aborted %v after abort %q", g.Aborted(), tc.abort)
			}
		})
	}
}
