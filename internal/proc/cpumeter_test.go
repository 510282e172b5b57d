package proc

import (
	"runtime"
	"testing"
)

// TestCPUMeterSeesWorkDone checks that CPU spent between two samples is
// counted, and that the first sample after the start is measured.
func TestCPUMeterSeesWorkDone(t *testing.T) {
	if _, ok := CPU(); !ok {
		t.Skip("no process CPU time on this platform")
	}
	m := NewCPUMeter()
	start, _ := CPU()
	x := 0
	for i := 0; ; i++ { // bounded: until getrusage has counted some CPU, or 1e10 steps
		x += i % 7
		if i%1_000_000 == 0 {
			if now, _ := CPU(); now > start || i > 1e10 {
				break
			}
		}
	}
	runtime.KeepAlive(x)
	cores, wall, ok := m.Sample()
	if !ok || cores <= 0 || wall <= 0 {
		t.Fatalf("Sample = %v cores over %v, ok %v; want some CPU measured", cores, wall, ok)
	}
}

func TestResidentBytes(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("/proc/self/statm is Linux's")
	}
	if rss, ok := ResidentBytes(); !ok || rss <= 0 {
		t.Fatalf("ResidentBytes = %v, %v; want the process's resident set", rss, ok)
	}
}
