package plan

import (
	"fmt"
	"math"
	"math/bits"
	"strconv"
	"strings"
)

// Frac is an exact fraction Num/Den in [0, 1], used for segment bounds so
// that the segments of a split test partition it without rounding drift.
type Frac struct{ Num, Den uint64 }

// Segment is the part [Start, End) of a test that one agent runs: its share
// of the arrivals, VUs, iterations and unique data rows. The zero value
// means the whole test.
//
// Arrival i belongs to the segment whose interval contains the van der
// Corput point of i (i's bits reversed, as a fraction of 2^64), so any set
// of segments that tiles [0, 1) partitions the arrivals exactly, and each
// segment's arrivals are spread evenly over time: the quarters of a test
// take every fourth arrival.
type Segment struct{ Start, End Frac }

// Whole is the segment that runs the whole test.
var Whole = Segment{Start: Frac{0, 1}, End: Frac{1, 1}}

// ParseSegment reads "a:b" where a and b are fractions like 1/4 or 0, e.g. "1/4:1/2".
func ParseSegment(s string) (Segment, error) {
	lo, hi, ok := strings.Cut(s, ":")
	if !ok {
		return Segment{}, fmt.Errorf("segment %q: want start:end, e.g. 0:1/4", s)
	}
	a, err := parseFrac(lo)
	if err != nil {
		return Segment{}, fmt.Errorf("segment %q: %v", s, err)
	}
	b, err := parseFrac(hi)
	if err != nil {
		return Segment{}, fmt.Errorf("segment %q: %v", s, err)
	}
	if !a.less(b) {
		return Segment{}, fmt.Errorf("segment %q: start must be below end", s)
	}
	return Segment{a, b}, nil
}

func parseFrac(s string) (Frac, error) {
	num, den, hasDen := strings.Cut(strings.TrimSpace(s), "/")
	n, err := strconv.ParseUint(num, 10, 63)
	if err != nil {
		return Frac{}, fmt.Errorf("bad fraction %q", s)
	}
	d := uint64(1)
	if hasDen {
		if d, err = strconv.ParseUint(den, 10, 63); err != nil || d == 0 {
			return Frac{}, fmt.Errorf("bad fraction %q", s)
		}
	}
	if n > d {
		return Frac{}, fmt.Errorf("fraction %q is above 1", s)
	}
	return Frac{n, d}, nil
}

func (f Frac) less(g Frac) bool {
	hi1, lo1 := bits.Mul64(f.Num, g.Den)
	hi2, lo2 := bits.Mul64(g.Num, f.Den)
	return hi1 < hi2 || (hi1 == hi2 && lo1 < lo2)
}

// floorMul returns ⌊n·f⌋ exactly; the quotient is at most n, so Div64 cannot overflow.
func (f Frac) floorMul(n uint64) uint64 {
	hi, lo := bits.Mul64(n, f.Num)
	q, _ := bits.Div64(hi, lo, f.Den)
	return q
}

// norm turns the zero Segment into Whole.
func (s Segment) norm() Segment {
	if s.End.Den == 0 {
		return Whole
	}
	return s
}

// IsWhole reports whether the segment is the whole test.
func (s Segment) IsWhole() bool {
	s = s.norm()
	return s.Start.Num == 0 && s.End.Num == s.End.Den
}

// Share returns the segment's part of n units: ⌊n·End⌋ − ⌊n·Start⌋. The
// shares of segments that tile [0, 1) add up to n exactly.
func (s Segment) Share(n int) int {
	lo, hi := s.Range(n)
	return hi - lo
}

// Range returns the segment's units [lo, hi) of n, e.g. its unique data rows.
func (s Segment) Range(n int) (lo, hi int) {
	if n <= 0 {
		return 0, 0
	}
	s = s.norm()
	return int(s.Start.floorMul(uint64(n))), int(s.End.floorMul(uint64(n)))
}

// HasArrival reports whether arrival number i of the whole test is this segment's.
func (s Segment) HasArrival(i int64) bool {
	s = s.norm()
	x := bits.Reverse64(uint64(i)) // van der Corput point x/2^64
	return atLeast(x, s.Start) && !atLeast(x, s.End)
}

// atLeast reports x/2^64 ≥ f. With x·Den = hi·2^64 + lo, that holds exactly when hi ≥ Num.
func atLeast(x uint64, f Frac) bool {
	if f.Num == f.Den {
		return false
	}
	hi, _ := bits.Mul64(x, f.Den)
	return hi >= f.Num
}

// String formats the segment as ParseSegment reads it.
func (s Segment) String() string {
	s = s.norm()
	return s.Start.String() + ":" + s.End.String()
}

// String formats the fraction as "n/d", or "0" and "1".
func (f Frac) String() string {
	switch {
	case f.Num == 0:
		return "0"
	case f.Num == f.Den:
		return "1"
	}
	return strconv.FormatUint(f.Num, 10) + "/" + strconv.FormatUint(f.Den, 10)
}

// ArrivalsIn returns how many arrivals of the whole test with an index in
// [lo, hi) are this segment's: the count of HasArrival over the range,
// computed without visiting it, so a scheduler far behind can count what it
// missed in one step.
func (s Segment) ArrivalsIn(lo, hi int64) int64 {
	if hi <= lo {
		return 0
	}
	s = s.norm()
	from, to := lowestPoint(s.Start), lowestPoint(s.End)
	below := func(n int64) int64 { return int64(reversedBelow(uint64(n), to) - reversedBelow(uint64(n), from)) }
	return below(hi) - below(lo)
}

// point64 is a point x/2^64 of [0, 1]; all marks 1 itself, which fits no uint64.
type point64 struct {
	x   uint64
	all bool
}

// lowestPoint returns the least x with x/2^64 ≥ f: HasArrival's bound as an integer.
func lowestPoint(f Frac) point64 {
	if f.Num >= f.Den {
		return point64{all: true}
	}
	q, r := bits.Div64(f.Num, 0, f.Den) // ⌊Num·2^64/Den⌋; Num < Den, so it fits
	if r == 0 {
		return point64{x: q}
	}
	if q == math.MaxUint64 {
		return point64{all: true}
	}
	return point64{x: q + 1}
}

// reversedBelow counts the i in [0, n) whose bit reversal is below t. It
// walks i's bits from the lowest, which are the reversal's highest, keeping
// for each (i vs n, reversal vs t) comparison state how many prefixes reach it.
func reversedBelow(n uint64, t point64) uint64 {
	if t.all {
		return n
	}
	const lt, eq, gt = 0, 1, 2
	var cnt [3][3]uint64 // [i's low bits vs n's][reversal's high bits vs t's]
	cnt[eq][eq] = 1
	for j := 0; j < 64; j++ {
		nb := n >> j & 1
		tb := t.x >> (63 - j) & 1
		var next [3][3]uint64
		for cn := range 3 {
			for ct := range 3 {
				c := cnt[cn][ct]
				if c == 0 {
					continue
				}
				for b := uint64(0); b < 2; b++ {
					ncn := cn // a higher bit that differs decides i vs n
					if b < nb {
						ncn = lt
					} else if b > nb {
						ncn = gt
					}
					nct := ct // the first differing bit decides the reversal vs t
					if ct == eq {
						if b < tb {
							nct = lt
						} else if b > tb {
							nct = gt
						}
					}
					next[ncn][nct] += c
				}
			}
		}
		cnt = next
	}
	return cnt[lt][lt]
}
