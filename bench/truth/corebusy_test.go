package main

import (
	"os"
	"path/filepath"
	"testing"
)

func TestReadCore(t *testing.T) {
	stat := "cpu  300 0 100 500 100 0 0 0 0 0\n" +
		"cpu0 100 0 50 200 50 0 0 0 0 0\n" +
		"cpu1 200 0 50 300 50 0 0 7 9 9\n" +
		"intr 1 2 3\n"
	cases := []struct {
		name string
		cpu  int
		want coreTicks
		ok   bool
	}{
		{"cpu0: user, system busy; idle, iowait not", 0, coreTicks{busy: 150, all: 400}, true},
		{"cpu1: steal counted, guest not twice", 1, coreTicks{busy: 257, all: 607}, true},
		{"no cpu2", 2, coreTicks{}, false},
	}
	path := filepath.Join(t.TempDir(), "stat")
	if err := os.WriteFile(path, []byte(stat), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := readCore(path, tc.cpu)
			if got != tc.want || ok != tc.ok {
				t.Errorf("readCore = %+v, %v; want %+v, %v", got, ok, tc.want, tc.ok)
			}
		})
	}
}

// TestCoreBusyMay: a healthy case's run whose target core was full may
// fire a CPU finding, nothing else; below the threshold not even that.
func TestCoreBusyMay(t *testing.T) {
	healthy := Case{ID: "healthy-70"}
	cases := []struct {
		share          float64
		cpuOK, otherOK bool
	}{
		{0.5, false, false},
		{0.899, false, false},
		{0.9, true, false},
		{1, true, false},
	}
	for _, tc := range cases {
		r := RunRecord{Case: healthy.ID, Judged: true, Fired: []string{"cpu-saturation:App", "saturation"}, MayAlso: coreBusyMay(tc.share)}
		rows := map[string]RuleScore{}
		for _, rs := range scoreRules([]Case{healthy}, []RunRecord{r}) {
			rows[rs.Rule] = rs
		}
		if got := rows["cpu-saturation"].FiredAllowed == 1; got != tc.cpuOK {
			t.Errorf("core %.3f busy: cpu-saturation allowed %v, want %v", tc.share, got, tc.cpuOK)
		}
		if got := rows["saturation"].FiredAllowed == 1; got != tc.otherOK || rows["saturation"].Fired != 1 {
			t.Errorf("core %.3f busy: saturation allowed %v (fired %d), want %v", tc.share, got, rows["saturation"].Fired, tc.otherOK)
		}
	}
}
