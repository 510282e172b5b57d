package testkit

import (
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"testing"
)

// fakeT records what JudgeOnQuietHost says; Skip stops it as t.Skip does.
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
func (f *fakeT) Skip(args ...any) {
	f.skipped = fmt.Sprint(args...)
	panic(skipped{})
}

// TestJudgeOnQuietHost: a wrong outcome on a quiet host fails at once; on
// a busy one it is logged and tried again, and a host busy throughout
// skips the test, or under LOADLENS_CI=1 fails it with the figures. Busy
// and quiet are relative to the machine's cores (quiet: under BusyCores).
func TestJudgeOnQuietHost(t *testing.T) {
	quiet, busy := BusyCores()*0.4, BusyCores()*2
	tests := []struct {
		name             string
		ci               bool
		outcomes         []bool    // whether each attempt went wrong
		other            []float64 // other processes' cores during each attempt
		attempts, errors int
		logs             int // busy attempts logged
		skip             bool
	}{
		{"passes at once", false, []bool{false}, []float64{busy}, 1, 0, 0, false},
		{"fails on a quiet host at once", false, []bool{true}, []float64{quiet}, 1, 1, 0, false},
		{"busy, then passes", false, []bool{true, false}, []float64{busy, busy}, 2, 0, 1, false},
		{"busy, then fails quietly", false, []bool{true, true}, []float64{busy, quiet}, 2, 1, 1, false},
		{"busy throughout: skipped", false, []bool{true, true, true}, []float64{busy, busy, busy}, 3, 0, 3, true},
		{"busy throughout in CI: failed", true, []bool{true, true, true}, []float64{busy, busy, busy}, 3, 1, 3, false},
		{"busy, then passes in CI", true, []bool{true, false}, []float64{busy, busy}, 2, 0, 1, false},
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
				JudgeOnQuietHost(f, func() ([]string, float64) {
					i := n
					n++
					if i >= len(tt.outcomes) {
						t.Fatalf("attempt %d: more attempts than the table has", n)
					}
					if tt.outcomes[i] {
						return []string{fmt.Sprintf("wrong %d", n)}, tt.other[i]
					}
					return nil, tt.other[i]
				})
			}()
			if n != tt.attempts || len(f.errors) != tt.errors || len(f.logs) != tt.logs || (f.skipped != "") != tt.skip {
				t.Errorf("%d attempts, errors %q, logs %q, skipped %q; want %d attempts, %d errors, %d logs, skipped %v",
					n, f.errors, f.logs, f.skipped, tt.attempts, tt.errors, tt.logs, tt.skip)
			}
			for i, l := range f.logs { // every busy attempt's failure and figure stays in the log
				if want := fmt.Sprintf("wrong %d, while other processes used %.2f cores", i+1, busy); !strings.Contains(l, want) {
					t.Errorf("log %d %q does not say %q", i+1, l, want)
				}
			}
			if verdict := strings.Join(append(f.errors, f.skipped), ""); tt.attempts == attempts && !strings.Contains(verdict, fmt.Sprintf("%.2f, %.2f, %.2f cores", busy, busy, busy)) {
				t.Errorf("the verdict %q does not give the three attempts' figures", verdict)
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
