package h1

import (
	"time"
	_ "unsafe" // for go:linkname
)

// Clock reads the runtime's monotonic clock alone, as an offset from one
// time.Now: time.Now also reads the wall clock, a second vDSO call (about
// 30 ns on the bench's VM) that timestamps used only for durations do not
// need. Its times carry a monotonic reading, so they subtract from
// time.Now's (to within err, tens of ns: when time.Now read its base is
// known between two reads) and exactly from each other; their wall reading
// does not follow clock adjustments made after the first. The zero Clock
// is ready; it is used by one goroutine.
type Clock struct {
	base time.Time
	mono int64         // nanotime when base was read, to within err
	err  time.Duration // half the narrowest bracket of base's read
}

// Now returns the current time, as time.Now does.
func (k *Clock) Now() time.Time {
	if k.base.IsZero() {
		k.calibrate()
	}
	return k.base.Add(time.Duration(nanotime() - k.mono))
}

// calibrate reads base between two nanotimes, thrice, and keeps the
// narrowest bracket's middle as its monotonic time.
func (k *Clock) calibrate() {
	for i := range 3 {
		n1 := nanotime()
		base := time.Now()
		n2 := nanotime()
		if e := time.Duration(n2-n1) / 2; i == 0 || e < k.err {
			k.base, k.mono, k.err = base, n1+(n2-n1)/2, e
		}
	}
}

// nanotime is the runtime's monotonic clock, which time.Now reads too. The
// runtime keeps this name for the packages that link to it.
//
//go:linkname nanotime runtime.nanotime
func nanotime() int64
