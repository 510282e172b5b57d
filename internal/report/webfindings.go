package report

import (
	"unicode"
	"unicode/utf8"

	"github.com/loadlens/loadlens/internal/diagnose"
	"github.com/loadlens/loadlens/internal/units"
)

// Diagnosis is what the pages show of a run's diagnosis: the findings,
// numbered in order, or the statement that no bottleneck was found.
type Diagnosis struct {
	Findings []FindingView `json:"findings"`
	Healthy  string        `json:"healthy,omitempty"`
	UpTo     int           `json:"upto,omitempty"` // live: the seconds diagnosed so far
}

// FindingView is one finding as the pages show it; the charts shade its
// seconds and label the band with its number.
type FindingView struct {
	N        int            `json:"n"` // 1-based, as listed
	Kind     string         `json:"kind"`
	Severity string         `json:"severity"` // critical, warning or info
	Title    string         `json:"title"`
	From     int            `json:"from"` // seconds of the run, inclusive
	To       int            `json:"to"`
	When     string         `json:"when"` // From–To as m:ss, as the charts' axis reads
	Evidence []EvidenceView `json:"evidence"`
	Remedies []string       `json:"remedies"`
	Figures  []FigureView   `json:"figures,omitempty"` // every number the title and evidence state
}

// FigureView is one number a finding states, as it reads and as it was
// computed from run.db.
type FigureView struct {
	Text  string `json:"text"`  // the value as the title and evidence print it
	Value Num    `json:"value"` // in the unit's base: seconds, a fraction, cores
	Unit  string `json:"unit"`
	What  string `json:"what"`
	Basis string `json:"basis"` // how it was computed: statistic, source and seconds
}

// EvidenceView is one piece of a finding's evidence.
type EvidenceView struct {
	At     string `json:"at"`     // its second as m:ss
	Text   string `json:"text"`   // what it shows, in words with units
	Source string `json:"source"` // how its main figure was computed from run.db, with its raw value
}

// NewDiagnosis returns the pages' view of findings fs and statement healthy.
func NewDiagnosis(fs []diagnose.Finding, healthy *diagnose.Verdict) Diagnosis {
	d := Diagnosis{Findings: []FindingView{}, Healthy: sentence(HealthyText(healthy))}
	for i := range fs {
		f := &fs[i]
		v := FindingView{N: i + 1, Kind: f.Kind, Severity: f.Severity.String(), Title: FindingTitle(f), From: f.From, To: f.To,
			When: spanText(f.From, f.To), Evidence: []EvidenceView{}, Remedies: append([]string{}, f.Remedies...)}
		for k := range f.Evidence {
			e := &f.Evidence[k]
			v.Evidence = append(v.Evidence, EvidenceView{At: units.Clock(e.Sec), Text: EvidenceText(f, e), Source: evidenceBasis(f.Figures, e)})
		}
		for i, g := range f.Figures {
			v.Figures = append(v.Figures, FigureView{Text: FigureText(g), Value: Num(round6(g.Value)), Unit: g.Unit.String(), What: g.What,
				Basis: Basis(f.Figures, i)})
		}
		d.Findings = append(d.Findings, v)
	}
	return d
}

// spanText formats the seconds from..to of a run, e.g. "0:12–0:31 (20 seconds)".
func spanText(from, to int) string {
	if to <= from {
		return units.Clock(from)
	}
	return units.Span(from, to) + " (" + units.CountOf(int64(to-from+1), "second", "seconds") + ")"
}

// sentence starts s with a capital letter, as a line of its own reads.
func sentence(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}
