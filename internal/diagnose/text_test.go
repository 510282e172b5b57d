package diagnose

import "github.com/loadlens/loadlens/internal/units"

// The lines of a finding as the pages write them (report renders them with
// the same units.Of), for the tests of the rules' wording.

func figureText(f Figure) string {
	if f.Unit == UnitReqPerSec && f.Per != "" {
		return units.Rate(f.Value, f.Per)
	}
	return units.Of(f.Value, f.Unit.String())
}

func title(f Finding) string { return Join(f.Parts, f.Figures, figureText) }

func evidenceText(f Finding, e Evidence) string { return Join(e.Parts, f.Figures, figureText) }

// healthyText is the healthy statement of a run's findings; "" for none.
func healthyText(in Input, fs []Finding) string {
	v := Healthy(in, fs)
	if v == nil {
		return ""
	}
	return Join(v.Parts, v.Figures, figureText)
}
