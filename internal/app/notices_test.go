package app

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/loadlens/loadlens/internal/live"
	"github.com/loadlens/loadlens/internal/units"
)

func TestNoticesFitTheTerminal(t *testing.T) {
	long := "the generator could not keep up: 3,865 iterations dropped; the VU pool was held at 1,711 because its VUs waited for a CPU (scheduler lag p99 41.0ms), so more VUs would only wait longer"
	tests := []struct {
		name    string
		warning bool
		lead    string
	}{
		{"note", false, "note: "},
		{"warning", true, "warning: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out strings.Builder
			r := &runner{cfg: RunConfig{Out: &out}, line: live.NewLine(&out, false)}
			r.notices = []notice{{text: long, warning: tt.warning}}
			r.showNotices()
			got := out.String()
			if !strings.HasPrefix(got, tt.lead) {
				t.Fatalf("the notice does not start with %q:\n%s", tt.lead, got)
			}
			for _, l := range strings.Split(strings.TrimSuffix(got, "\n"), "\n") {
				if n := utf8.RuneCountInString(l); n > units.Columns {
					t.Fatalf("a %d-column line:\n%s", n, got)
				}
			}
			if flat := strings.Join(strings.Fields(strings.TrimPrefix(got, tt.lead)), " "); flat != long {
				t.Fatalf("the notice lost words:\n%s", got)
			}
		})
	}
}
