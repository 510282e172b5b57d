package report

import (
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/loadlens/loadlens/internal/diagnose"
	"github.com/loadlens/loadlens/internal/store"
	"github.com/loadlens/loadlens/internal/units"
)

// TestFindingLinesFit holds every line of a finding to units.Columns: a
// series key with four labels (the generator finding's
// loadlens_vu_pool_held{…}, 109 columns in a trial), a long word in a
// title, and every finding of the recorded demo runs.
func TestFindingLinesFit(t *testing.T) {
	held := `loadlens_vu_pool_held{reason="generator_cpu",role="generator",scenario="default",target="loadlens"}`
	long := diagnose.Finding{Kind: diagnose.KindGeneratorBound, Severity: diagnose.Critical,
		Parts: []diagnose.Segment{{Text: "The VU pool was held at ", Figure: -1}, {Figure: 0}, {Text: " by " + strings.Repeat("x", 120), Figure: -1}},
		Figures: []diagnose.Figure{{Value: 478, Unit: diagnose.UnitCount, What: "the size the VU pool was held at", Source: held,
			Stat: diagnose.StatMax, From: 1, To: 9}},
		Evidence: []diagnose.Evidence{{Figure: 0, Parts: []diagnose.Segment{{Text: "held at ", Figure: -1}, {Figure: 0}}}},
		Remedies: []string{"give the generator more CPU"}}
	cases := map[string][]diagnose.Finding{"pool held": {long}}
	dbs, _ := filepath.Glob(filepath.Join("..", "diagnose", "testdata", "corpus", "*.db"))
	if len(dbs) == 0 {
		t.Fatal("no recorded runs in internal/diagnose/testdata/corpus")
	}
	for _, db := range dbs {
		rd, err := store.Open(db)
		if err != nil {
			t.Fatal(err)
		}
		run, err := rd.Run()
		if err != nil {
			t.Fatal(err)
		}
		set, err := rd.Series()
		if err != nil {
			t.Fatal(err)
		}
		rd.Close()
		cases[filepath.Base(db)] = diagnose.Diagnose(diagnose.Input{Run: run, Series: set})
	}
	for name, fs := range cases {
		t.Run(name, func(t *testing.T) {
			var sb strings.Builder
			if err := writeFindingsAt(&sb, fs, "  "); err != nil {
				t.Fatal(err)
			}
			for _, l := range strings.Split(sb.String(), "\n") {
				if n := utf8.RuneCountInString(l); n > units.Columns {
					t.Errorf("%d columns:\n%s", n, l)
				}
			}
			if name == "pool held" && !strings.Contains(sb.String(), `{reason="generator_cpu", role="generator",`) {
				t.Errorf("the key's labels should break after their commas:\n%s", sb.String())
			}
		})
	}
}
