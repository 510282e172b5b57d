package diagnose

import (
	"bufio"
	"io"
	"strconv"
	"strings"

	"github.com/loadlens/loadlens/internal/units"
)

// Render writes findings as plain text for the terminal summary: per
// finding its severity and title, the seconds, the evidence and the
// remedies. It writes nothing for no findings; print Healthy then.
func Render(w io.Writer, fs []Finding) error {
	if len(fs) == 0 {
		return nil
	}
	b := bufio.NewWriter(w)
	b.WriteString(units.CountOf(int64(len(fs)), "finding", "findings") + "\n")
	for _, f := range fs {
		b.WriteString("\n" + pad(strings.ToUpper(f.Severity.String()), 10) + f.Title + "\n")
		b.WriteString(indent + f.Kind + ", " + secondsText(f.From, f.To) + "\n")
		if len(f.Evidence) > 0 {
			b.WriteString(indent + "evidence:\n")
			for _, e := range f.Evidence {
				b.WriteString(indent + "  " + e.Text + "  [" + e.Basis(f.Figures) + "]\n")
			}
		}
		if len(f.Remedies) > 0 {
			b.WriteString(indent + "usual remedies, cheapest first:\n")
			for i, r := range f.Remedies {
				b.WriteString(indent + "  " + strconv.Itoa(i+1) + ". " + r + "\n")
			}
		}
	}
	return b.Flush()
}

// Basis says what the evidence's main figure is computed from, with its
// value; for evidence built by hand without figures, its source and value.
func (e Evidence) Basis(figs []Figure) string {
	if e.Figure >= 0 && e.Figure < len(figs) {
		return Basis(figs, e.Figure)
	}
	return e.Source + " = " + units.Number(e.Value)
}

// Basis says where a figure comes from, for the brackets after evidence:
// "max of hikaricp_connections_pending{…} over 12s–27s = 71".
func Basis(figs []Figure, i int) string {
	return basis(figs, i) + " = " + units.Number(figs[i].Value)
}

// basis says how figure i was computed, without its value.
func basis(figs []Figure, i int) string {
	f := figs[i]
	if f.Stat.Derived() && len(f.Of) == 2 {
		op := map[Stat]string{StatRatio: " / ", StatProduct: " × ", StatChange: " / ", StatDiff: " − "}[f.Stat]
		s := "(" + basis(figs, f.Of[0]) + ")" + op + "(" + basis(figs, f.Of[1]) + ")"
		if f.Stat == StatChange {
			s += " − 1"
		}
		return s
	}
	switch {
	case f.Stat == StatLimit:
		return "rule threshold"
	case f.Stat == StatRank:
		return "rank of " + quantileName(f.Q)
	case f.Stat == StatQuantile:
		return quantileName(f.Q) + " of " + f.Source + " over " + secondsText(f.From, f.To)
	case f.Stat == StatValue:
		return f.Source + " at " + units.Clock(f.From)
	case f.Stat == StatOnset || f.Stat == StatSecond:
		return "second"
	}
	return f.Stat.String() + " of " + f.Source + " over " + secondsText(f.From, f.To)
}

// secondsText names a span of seconds: "0:12" or "0:12–0:27".
func secondsText(from, to int) string { return units.Span(from, to) }

// indent aligns the lines under a finding's title.
const indent = "          "

// pad left-aligns s in a field of n characters.
func pad(s string, n int) string {
	if l := len([]rune(s)); l < n {
		return s + strings.Repeat(" ", n-l)
	}
	return s + " "
}
