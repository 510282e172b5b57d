package app

import (
	"testing"

	"github.com/loadlens/loadlens/internal/diagnose"
)

// A run's history record says its generator disturbed it when its own
// diagnosis found, critically, the generator or its host limited it.
func TestDisturbedBy(t *testing.T) {
	for _, tc := range []struct {
		name string
		fs   []diagnose.Finding
		want string
	}{
		{"the host busy", []diagnose.Finding{{Kind: diagnose.KindHostBusy, Severity: diagnose.Critical}}, diagnose.KindHostBusy},
		{"the generator bound, after a target finding", []diagnose.Finding{{Kind: "pool-exhaustion", Severity: diagnose.Critical},
			{Kind: diagnose.KindGeneratorBound, Severity: diagnose.Critical}}, diagnose.KindGeneratorBound},
		{"a warning only", []diagnose.Finding{{Kind: diagnose.KindGeneratorBound, Severity: diagnose.Warning}}, ""},
		{"the target's own", []diagnose.Finding{{Kind: "pool-exhaustion", Severity: diagnose.Critical}}, ""},
		{"none", nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := disturbedBy(tc.fs); got != tc.want {
				t.Errorf("disturbedBy = %q, want %q", got, tc.want)
			}
		})
	}
}
