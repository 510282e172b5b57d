package diagnose

import (
	"strings"
	"testing"
)

// "No bottleneck found" says when the hypervisor took a share of the
// generator's host worth noting (a loopback target ran slower for it),
// and not when it took little or nothing was recorded; the note is no
// finding of its own.
func TestHealthyNotesCPUSteal(t *testing.T) {
	for _, tc := range []struct {
		name   string
		steal  float64 // cores' worth of 2
		hasSet bool
		want   string // "" for no note
	}{
		{"5% of the host stolen", 0.1, true, "the hypervisor took 5% of the generator host's 2 cores (CPU steal)"},
		{"1% stolen", 0.02, true, ""},
		{"no host series", 0, false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := healthyRamp(t)
			if tc.hasSet {
				in.Series = hostSeries(30, 0.5, tc.steal, 0.3)
			}
			fs := Diagnose(in)
			for _, f := range fs {
				t.Errorf("finding %s at %d", f.Kind, f.From)
			}
			got := healthyText(in, fs)
			if !strings.HasPrefix(got, "no bottleneck found") {
				t.Fatalf("verdict %q", got)
			}
			if has := strings.Contains(got, "hypervisor"); has != (tc.want != "") || !strings.Contains(got, tc.want) {
				t.Errorf("verdict %q; want the note %q", got, tc.want)
			}
		})
	}
}
