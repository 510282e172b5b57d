package report

import (
	"bufio"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/loadlens/loadlens/internal/diagnose"
	"github.com/loadlens/loadlens/internal/units"
)

// FigureText writes a finding's figure in its unit, as every page shows it.
func FigureText(f diagnose.Figure) string {
	if f.Unit == diagnose.UnitReqPerSec && f.Per != "" {
		return units.Rate(f.Value, f.Per) // "40 calls/s"
	}
	return units.Of(f.Value, f.Unit.String())
}

// FindingTitle is a finding's title with its figures written in.
func FindingTitle(f *diagnose.Finding) string { return diagnose.Join(f.Parts, f.Figures, FigureText) }

// EvidenceText is one line of a finding's evidence with its figures written in.
func EvidenceText(f *diagnose.Finding, e *diagnose.Evidence) string {
	return diagnose.Join(e.Parts, f.Figures, FigureText)
}

// HealthyText is the statement that no bottleneck was found; "" for none.
func HealthyText(v *diagnose.Verdict) string {
	if v == nil {
		return ""
	}
	return diagnose.Join(v.Parts, v.Figures, FigureText)
}

// WriteFindings writes findings as plain text for the terminal summary:
// per finding its severity and title, its seconds, the evidence and the
// remedies. It writes nothing for no findings; print HealthyText then.
func WriteFindings(w io.Writer, fs []diagnose.Finding) error { return writeFindingsAt(w, fs, "") }

// writeFindingsAt writes WriteFindings's text with every line after margin,
// wrapped at units.Columns under its own start.
func writeFindingsAt(w io.Writer, fs []diagnose.Finding, margin string) error {
	if len(fs) == 0 {
		return nil
	}
	b := bufio.NewWriter(w)
	line := func(lead, hang, text string) {
		room := units.Columns - utf8.RuneCountInString(margin+hang)
		b.WriteString(units.Wrap(breakable(text, room), units.Columns, margin+lead, margin+hang))
	}
	b.WriteString(margin + units.CountOf(int64(len(fs)), "finding", "findings") + "\n")
	for i := range fs {
		f := &fs[i]
		b.WriteString("\n")
		line(pad(strings.ToUpper(f.Severity.String()), 10), pad("", 10), FindingTitle(f))
		line(indent, indent, f.Kind+", "+spanText(f.From, f.To))
		if len(f.Evidence) > 0 {
			b.WriteString(margin + indent + "evidence:\n")
			for k := range f.Evidence {
				e := &f.Evidence[k]
				text, basis := EvidenceText(f, e), "["+evidenceBasis(f.Figures, e)+"]"
				if whole := margin + indent + "  " + text + "  " + basis; utf8.RuneCountInString(whole) <= units.Columns {
					b.WriteString(whole + "\n")
					continue
				}
				line(indent+"  ", indent+"    ", text) // the basis gets lines of its own, to stay apart
				line(indent+"    ", indent+"    ", basis)
			}
		}
		if len(f.Remedies) > 0 {
			b.WriteString(margin + indent + "usual remedies, cheapest first:\n")
			for i, r := range f.Remedies {
				n := strconv.Itoa(i+1) + ". "
				line(indent+"  "+n, indent+"  "+strings.Repeat(" ", len(n)), r)
			}
		}
	}
	return b.Flush()
}

// breakable lets Wrap break the words of text longer than room: a series
// key's labels after their commas (loadlens_vu_pool_held{reason="…", role=…}
// is 95 columns), and what is still too long in its middle.
func breakable(text string, room int) string {
	words := strings.Split(text, " ")
	changed := false
	for i, w := range words {
		if utf8.RuneCountInString(w) <= room {
			continue
		}
		changed = true
		if open := strings.IndexByte(w, '{'); open >= 0 && strings.Contains(w[open:], ",") {
			w = w[:open] + strings.ReplaceAll(w[open:], `",`, `", `)
		}
		parts := strings.Split(w, " ")
		for k, p := range parts {
			parts[k] = units.Middle(p, room)
		}
		words[i] = strings.Join(parts, " ")
	}
	if !changed {
		return text
	}
	return strings.Join(words, " ")
}

// evidenceBasis says what the evidence's main figure is computed from,
// with its value; for evidence built by hand without figures, its source
// and value.
func evidenceBasis(figs []diagnose.Figure, e *diagnose.Evidence) string {
	if e.Figure >= 0 && e.Figure < len(figs) {
		return Basis(figs, e.Figure)
	}
	return e.Source + " = " + units.Number(e.Value)
}

// Basis says where a figure comes from, for the brackets after evidence:
// "max of hikaricp_connections_pending{…} over 0:12–0:27 = 71".
func Basis(figs []diagnose.Figure, i int) string {
	return basis(figs, i) + " = " + units.Number(figs[i].Value)
}

// basis says how figure i was computed, without its value.
func basis(figs []diagnose.Figure, i int) string {
	f := figs[i]
	if f.Stat.Derived() && len(f.Of) == 2 {
		op := map[diagnose.Stat]string{diagnose.StatRatio: " / ", diagnose.StatProduct: " × ", diagnose.StatChange: " / ", diagnose.StatDiff: " − "}[f.Stat]
		s := "(" + basis(figs, f.Of[0]) + ")" + op + "(" + basis(figs, f.Of[1]) + ")"
		if f.Stat == diagnose.StatChange {
			s += " − 1"
		}
		return s
	}
	switch f.Stat {
	case diagnose.StatLimit:
		return "rule threshold"
	case diagnose.StatRank:
		return "rank of " + diagnose.QuantileName(f.Q)
	case diagnose.StatQuantile:
		return diagnose.QuantileName(f.Q) + " of " + f.Source + " over " + units.Span(f.From, f.To)
	case diagnose.StatValue:
		return f.Source + " at " + units.Clock(f.From)
	case diagnose.StatOnset, diagnose.StatSecond:
		return "second"
	}
	return f.Stat.String() + " of " + f.Source + " over " + units.Span(f.From, f.To)
}

// indent aligns the lines under a finding's title.
const indent = "          "

// pad left-aligns s in a field of n characters.
func pad(s string, n int) string {
	if l := len([]rune(s)); l < n {
		return s + strings.Repeat(" ", n-l)
	}
	return s + " "
}
