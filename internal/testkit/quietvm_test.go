package testkit

import (
	"runtime"
	"testing"
)

// TestJudgeOnQuietVM: steal over StealShare is a busy host like other
// processes are; steal alone in every attempt skips even in CI (the
// hypervisor is outside the machine), other processes in CI fail.
func TestJudgeOnQuietVM(t *testing.T) {
	busy, stolen := BusyCores()+0.1, StealShare*float64(runtime.NumCPU())+0.01
	tests := []struct {
		name             string
		ci               bool
		wrong            []bool
		other, steal     []float64
		attempts, errors int
		skip             bool
	}{
		{"passes at once", true, []bool{false}, []float64{0}, []float64{stolen}, 1, 0, false},
		{"fails on a quiet host", true, []bool{true}, []float64{0}, []float64{0}, 1, 1, false},
		{"stolen, then fails quietly", true, []bool{true, true}, []float64{0, 0}, []float64{stolen, 0}, 2, 1, false},
		{"stolen throughout in CI: skipped", true, []bool{true, true, true}, []float64{0, 0, 0}, []float64{stolen, stolen, stolen}, 3, 0, true},
		{"busy once, stolen after, in CI: failed", true, []bool{true, true, true}, []float64{busy, 0, 0}, []float64{0, stolen, stolen}, 3, 1, false},
		{"busy throughout, not CI: skipped", false, []bool{true, true, true}, []float64{busy, busy, busy}, []float64{0, 0, 0}, 3, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ci := ""
			if tt.ci {
				ci = "1"
			}
			t.Setenv("LOADLENS_CI", ci)
			f := &fakeT{}
			n := 0
			func() {
				defer func() {
					if r := recover(); r != nil && r != (skipped{}) {
						panic(r)
					}
				}()
				JudgeOnQuietVM(f, func() Attempt {
					i := n
					n++
					if i >= len(tt.wrong) {
						t.Fatalf("attempt %d: more attempts than the table has", n)
					}
					a := Attempt{Other: tt.other[i], Stolen: tt.steal[i]}
					if tt.wrong[i] {
						a.Problems = []string{"wrong"}
					}
					return a
				})
			}()
			if n != tt.attempts || len(f.errors) != tt.errors || (f.skipped != "") != tt.skip {
				t.Errorf("%d attempts, errors %q, skipped %q; want %d attempts, %d errors, skipped %v", n, f.errors, f.skipped, tt.attempts, tt.errors, tt.skip)
			}
		})
	}
}
