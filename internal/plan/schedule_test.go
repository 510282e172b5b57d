package plan

import (
	"math"
	"testing"
	"time"
)

func arrivalsOf(t *testing.T, l Load, seg Segment) []time.Duration {
	t.Helper()
	a := NewArrivals(&l, seg)
	var out []time.Duration
	for i := 0; i < 1_000_000; i++ { // bounded: no test schedule has more
		at, ok := a.Next()
		if !ok {
			return out
		}
		out = append(out, at)
	}
	t.Fatal("schedule did not end")
	return nil
}

func TestArrivalsCounts(t *testing.T) {
	sec := time.Second
	cases := []struct {
		name  string
		load  Load
		count int
	}{
		{"constant 200/s for 5s", Load{StartRate: 200, Stages: []Stage{{5 * sec, 200}}}, 1000},
		{"ramp 0→100/s over 10s", Load{StartRate: 0, Stages: []Stage{{10 * sec, 100}}}, 500},
		{"ramp then hold", Load{StartRate: 0, Stages: []Stage{{2 * sec, 100}, {3 * sec, 100}}}, 400},
		{"ramp down 100→0 over 4s", Load{StartRate: 100, Stages: []Stage{{4 * sec, 0}}}, 200},
		{"zero rate", Load{StartRate: 0, Stages: []Stage{{5 * sec, 0}}}, 0},
		{"fractional rate 0.5/s for 10s", Load{StartRate: 0.5, Stages: []Stage{{10 * sec, 0.5}}}, 5},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := arrivalsOf(t, c.load, Whole)
			if len(got) != c.count {
				t.Fatalf("got %d arrivals, want %d", len(got), c.count)
			}
			for i := 1; i < len(got); i++ {
				if got[i] < got[i-1] {
					t.Fatalf("arrival %d at %v before arrival %d at %v", i, got[i], i-1, got[i-1])
				}
			}
			if n := len(got); n > 0 && got[n-1] >= c.load.Duration() {
				t.Fatalf("last arrival %v not before the end %v", got[n-1], c.load.Duration())
			}
		})
	}
}

func TestArrivalTimesFollowTheRate(t *testing.T) {
	cases := []struct {
		name string
		load Load
		want func(i int) float64 // seconds
	}{
		{"constant: i/λ", Load{StartRate: 200, Stages: []Stage{{5 * time.Second, 200}}},
			func(i int) float64 { return float64(i) / 200 }},
		{"linear ramp: √(2iD/r)", Load{Stages: []Stage{{10 * time.Second, 100}}},
			func(i int) float64 { return math.Sqrt(2 * float64(i) * 10 / 100) }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for i, at := range arrivalsOf(t, c.load, Whole) {
				if d := math.Abs(at.Seconds() - c.want(i)); d > 1e-6 {
					t.Fatalf("arrival %d at %v, want %.6fs", i, at, c.want(i))
				}
			}
		})
	}
}

func TestSegmentsPartitionArrivals(t *testing.T) {
	load := Load{StartRate: 50, Stages: []Stage{{4 * time.Second, 250}, {2 * time.Second, 250}}}
	whole := arrivalsOf(t, load, Whole)
	splits := map[string][]string{
		"halves":   {"0:1/2", "1/2:1"},
		"quarters": {"0:1/4", "1/4:1/2", "1/2:3/4", "3/4:1"},
		"thirds":   {"0:1/3", "1/3:2/3", "2/3:1"},
		"uneven":   {"0:1/10", "1/10:7/10", "7/10:1"},
	}
	for name, segs := range splits {
		t.Run(name, func(t *testing.T) {
			seen := map[time.Duration]int{}
			for _, s := range segs {
				seg, err := ParseSegment(s)
				if err != nil {
					t.Fatal(err)
				}
				got := arrivalsOf(t, load, seg)
				share := float64(seg.End.Num)/float64(seg.End.Den) - float64(seg.Start.Num)/float64(seg.Start.Den)
				if want := share * float64(len(whole)); math.Abs(float64(len(got))-want) > 2+0.01*want {
					t.Errorf("segment %s: %d arrivals, want about %.0f", s, len(got), want)
				}
				for _, at := range got {
					seen[at]++
				}
			}
			for i, at := range whole {
				if seen[at] != 1 {
					t.Fatalf("arrival %d at %v taken %d times", i, at, seen[at])
				}
			}
		})
	}
}

func TestSegmentShareTelescopes(t *testing.T) {
	segs := []string{"0:1/3", "1/3:2/3", "2/3:1"}
	for n := 0; n <= 100; n++ {
		sum, next := 0, 0
		for _, s := range segs {
			seg, _ := ParseSegment(s)
			lo, hi := seg.Range(n)
			if lo != next {
				t.Fatalf("n=%d: segment %s starts at %d, want %d", n, s, lo, next)
			}
			next = hi
			sum += seg.Share(n)
		}
		if sum != n || next != n {
			t.Fatalf("n=%d: shares add up to %d, end at %d", n, sum, next)
		}
	}
}

func TestParseSegmentErrors(t *testing.T) {
	for _, s := range []string{"", "1/2", "1/2:1/4", "0:2", "a:1", "0:1/0", "1/2:1/2"} {
		if _, err := ParseSegment(s); err == nil {
			t.Errorf("ParseSegment(%q): no error", s)
		}
	}
	if seg, err := ParseSegment("1/4:1/2"); err != nil || seg.String() != "1/4:1/2" {
		t.Errorf("ParseSegment(1/4:1/2) = %v, %v", seg, err)
	}
	if !(Segment{}).IsWhole() || !Whole.IsWhole() {
		t.Error("zero segment should be whole")
	}
}

func TestVUsAtAndChanges(t *testing.T) {
	sec := time.Second
	load := Load{StartVUs: 0, Stages: []Stage{{10 * sec, 10}, {5 * sec, 10}, {5 * sec, 5}}}
	cases := []struct {
		at   time.Duration
		want int
	}{
		{0, 0}, {999 * time.Millisecond, 0}, {sec, 1}, {5500 * time.Millisecond, 5}, {10 * sec, 10},
		{14 * sec, 10}, {15 * sec, 10}, {15*sec + 1, 10}, {16 * sec, 9}, {19*sec + sec/2, 6}, {20 * sec, 0},
	}
	for _, c := range cases {
		if got := VUsAt(&load, c.at); got != c.want {
			t.Errorf("VUsAt(%v) = %d, want %d", c.at, got, c.want)
		}
	}
	// walking the change points visits every count once on the way up
	var seen []int
	at := time.Duration(0)
	for i := 0; i < 100; i++ {
		n := VUsAt(&load, at)
		if len(seen) == 0 || seen[len(seen)-1] != n {
			seen = append(seen, n)
		}
		next, ok := NextVUChange(&load, at)
		if !ok {
			break
		}
		if next <= at {
			t.Fatalf("NextVUChange(%v) = %v, not after", at, next)
		}
		at = next
	}
	want := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 9, 8, 7, 6, 0} // 5 is reached only as the scenario ends
	if len(seen) != len(want) {
		t.Fatalf("counts %v, want %v", seen, want)
	}
	for i := range want {
		if seen[i] != want[i] {
			t.Fatalf("counts %v, want %v", seen, want)
		}
	}
}

func TestPeakRateAndRateAt(t *testing.T) {
	l := Load{StartRate: 10, Stages: []Stage{{10 * time.Second, 110}, {10 * time.Second, 50}}}
	if p := PeakRate(&l); p != 110 {
		t.Errorf("PeakRate = %v", p)
	}
	if r := RateAt(&l, 5*time.Second); r != 60 {
		t.Errorf("RateAt(5s) = %v, want 60", r)
	}
	if r := RateAt(&l, 15*time.Second); r != 80 {
		t.Errorf("RateAt(15s) = %v, want 80", r)
	}
}

// BenchmarkArrivalsNext is the open-model scheduler's arithmetic per arrival.
func BenchmarkArrivalsNext(b *testing.B) {
	for _, c := range []struct {
		name string
		seg  string
	}{{"whole", "0:1"}, {"a quarter", "1/4:1/2"}} {
		b.Run(c.name, func(b *testing.B) {
			seg, _ := ParseSegment(c.seg)
			l := Load{StartRate: 0, Stages: []Stage{{Duration: time.Hour, Target: 1e6}}}
			a := NewArrivals(&l, seg)
			b.ReportAllocs()
			for b.Loop() {
				if _, ok := a.Next(); !ok {
					b.Fatal("schedule ended")
				}
			}
		})
	}
}
