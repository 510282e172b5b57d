package proc

import (
	"os"
	"testing"
)

// TestOpenFDsCountsWithPauses checks both ways of counting the open
// descriptors against the files the test opens, and that reading the names
// pauses every fdsPerPause of them.
func TestOpenFDsCountsWithPauses(t *testing.T) {
	before := openFDsByName(func() {})
	if before < 0 {
		t.Skip("no /proc/self/fd here")
	}
	const extra = 3 * fdsPerPause
	for range extra {
		f, err := os.Open(os.DevNull)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
	}
	// A goroutine of an earlier test may still close a connection: a few either way.
	near := func(got int) bool { return got >= before+extra-8 && got <= before+extra+8 }
	pauses := 0
	if got := openFDsByName(func() { pauses++ }); !near(got) {
		t.Errorf("counted by name: %d descriptors, want %d", got, before+extra)
	}
	if pauses < extra/fdsPerPause {
		t.Errorf("%d pauses reading %d names, want at least %d", pauses, before+extra, extra/fdsPerPause)
	}
	if got := OpenFDs(func() {}); !near(got) {
		t.Errorf("OpenFDs: %d descriptors, want %d", got, before+extra)
	}
}
