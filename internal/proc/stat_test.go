package proc

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseProcStat(t *testing.T) {
	cases := []struct {
		name, text string
		want       hostTimes
		err        string
	}{
		{"two CPUs", "cpu  100 5 50 800 20 3 2 10 7 0\ncpu0 50 2 25 400 10 1 1 5 3 0\ncpu1 50 3 25 400 10 2 1 5 4 0\nintr 1 2\n",
			hostTimes{busy: 160, steal: 10, total: 990, cpus: 2}, ""},
		{"an old kernel without guest columns", "cpu 1 2 3 4 5 6 7 8\ncpu0 1 2 3 4 5 6 7 8\n", hostTimes{busy: 19, steal: 8, total: 36, cpus: 1}, ""},
		{"too few fields", "cpu 1 2 3\ncpu0 1 2 3\n", hostTimes{}, "at least 8"},
		{"not a number", "cpu 1 2 x 4 5 6 7 8\ncpu0 1\n", hostTimes{}, "cpu field 3"},
		{"no cpu lines", "intr 1 2\n", hostTimes{}, "no cpu lines"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := parseStat(strings.NewReader(c.text))
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("err %v, want one with %q", err, c.err)
				}
				return
			}
			if err != nil || got != c.want {
				t.Fatalf("parseStat = %+v, %v; want %+v", got, err, c.want)
			}
		})
	}
}

// TestHostMeterReadsTheIntervalBetweenSamples checks the cores busy and
// stolen against counts chosen by hand: 900 of 1,000 ticks busy and 20
// stolen on 2 CPUs are 1.8 cores busy and 0.04 stolen.
func TestHostMeterReadsTheIntervalBetweenSamples(t *testing.T) {
	path := filepath.Join(t.TempDir(), "stat")
	write := func(s string) {
		if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("cpu 100 0 100 800 0 0 0 0\ncpu0 1 1 1 1 1 1 1 1\ncpu1 1 1 1 1 1 1 1 1\n")
	m := NewHostMeter(path)
	write("cpu 1000 0 100 880 0 0 0 20\ncpu0 1 1 1 1 1 1 1 1\ncpu1 1 1 1 1 1 1 1 1\n")
	got := m.Sample()
	if !got.OK || got.CPUs != 2 || math.Abs(got.Busy-1.8) > 1e-9 || math.Abs(got.Steal-0.04) > 1e-9 {
		t.Fatalf("sample = %+v, want 1.8 cores busy and 0.04 stolen of 2", got)
	}
	if again := m.Sample(); again.OK {
		t.Errorf("no ticks passed, yet the sample reads %+v", again)
	}
	if missing := NewHostMeter(filepath.Join(t.TempDir(), "none")).Sample(); missing.OK {
		t.Errorf("a host without /proc/stat reads %+v", missing)
	}
}
