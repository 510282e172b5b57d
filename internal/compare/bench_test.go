package compare

import "testing"

// BenchmarkCompareTenMinutes compares two 10-minute holds at 1,000 req/s
// over two endpoints: the bootstrap's cost on a run of case study 1's size.
func BenchmarkCompareTenMinutes(b *testing.B) {
	load := ramp(1000, 10, 600, 5)
	a := synth{seed: 1, model: "arrival-rate", load: load}.input("a")
	c := synth{seed: 2, model: "arrival-rate", load: load}.input("b")
	b.ResetTimer()
	for range b.N {
		if _, err := Compare([]Input{a, c}, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
