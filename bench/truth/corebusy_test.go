package main

import (
	"os"
	"path/filepath"
	"strings"
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

func TestCoreBusyWhy(t *testing.T) {
	cases := []struct {
		share float64
		want  string // a part of the reason; "" for none
	}{
		{0.5, ""},
		{0.899, ""},
		{0.9, "CPU 1 was 90% busy"},
		{0.97, "not healthy at this load"},
	}
	for _, tc := range cases {
		got := coreBusyWhy(1, tc.share)
		if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
			t.Errorf("coreBusyWhy(1, %v) = %q, want one with %q", tc.share, got, tc.want)
		}
	}
}
