package testkit

import (
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"testing"
)

// fakeT records what JudgeOnQuietHost says; Skipf stops it as t.Skipf does.
type fakeT struct {
	testing.TB
	errors, logs []string
	skipped      string
}

type skipped struct{}

func (f *fakeT) Helper() {}
func (f *fakeT) Errorf(format string, args ...any) {
	f.errors = append(f.errors, fmt.Sprintf(format, args...))
}
func (f *fakeT) Logf(format string, args ...any) {
	f.logs = append(f.logs, fmt.Sprintf(format, args...))
}
func (f *fakeT) Skipf(format string, args ...any) {
	f.skipped = fmt.Sprintf(format, args...)
	panic(skipped{})
}

func TestJudgeOnQuietHost(t *testing.T) {
	tests := []struct {
		name             string
		outcomes         []bool    // whether each attempt went wrong
		other            []float64 // other processes' cores during each attempt
		attempts, errors int
		skip             bool
	}{
		{"passes at once", []bool{false}, []float64{2}, 1, 0, false},
		{"fails on a quiet host at once", []bool{true}, []float64{0.1}, 1, 1, false},
		{"busy, then passes", []bool{true, false}, []float64{1, 1}, 2, 0, false},
		{"busy, then fails quietly", []bool{true, true}, []float64{1, 0.2}, 2, 1, false},
		{"busy throughout: skipped", []bool{true, true, true}, []float64{1, 1, 1}, 3, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &fakeT{}
			n := 0
			func() {
				defer func() {
					if r := recover(); r != nil && r != (skipped{}) {
						panic(r)
					}
				}()
				JudgeOnQuietHost(f, func() ([]string, float64) {
					i := n
					n++
					if i >= len(tt.outcomes) {
						t.Fatalf("attempt %d: more attempts than the table has", n)
					}
					if tt.outcomes[i] {
						return []string{"wrong"}, tt.other[i]
					}
					return nil, tt.other[i]
				})
			}()
			if n != tt.attempts || len(f.errors) != tt.errors || (f.skipped != "") != tt.skip {
				t.Errorf("%d attempts, errors %q, skipped %q; want %d attempts, %d errors, skipped %v", n, f.errors, f.skipped, tt.attempts, tt.errors, tt.skip)
			}
		})
	}
}

func TestBufferTakesConcurrentWriters(t *testing.T) {
	var b Buffer
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 100 {
				fmt.Fprint(&b, "x")
			}
		}()
	}
	wg.Wait()
	if got := len(b.String()); got != 800 {
		t.Errorf("%d bytes, want 800", got)
	}
}

func TestStartAgentReadsTheAddress(t *testing.T) {
	tests := []struct {
		name, script, addr, err string
	}{
		{"first line", `echo "agent: listening on 127.0.0.1:4321; token required"; echo later`, "127.0.0.1:4321", ""},
		{"after a warning", `echo "warning: x" >&2; echo "note"; echo "agent: listening on 127.0.0.1:99; x"`, "127.0.0.1:99", ""},
		{"never says", `echo "something else"`, "", "ended without saying where it listens"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd := exec.Command("sh", "-c", tt.script)
			var out Buffer
			addr, err := StartAgent(cmd, &out)
			if cmd.Process != nil {
				defer cmd.Wait()
			}
			if addr != tt.addr || (err == nil) != (tt.err == "") || (err != nil && !strings.Contains(err.Error(), tt.err)) {
				t.Errorf("address %q, error %v; want %q, error %q", addr, err, tt.addr, tt.err)
			}
		})
	}
}
