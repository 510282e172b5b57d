package report

import (
	"fmt"
	"strings"

	"github.com/loadlens/loadlens/internal/spans"
	"github.com/loadlens/loadlens/internal/units"
)

// partLabel names a part of a request's time as the pages show it.
func partLabel(p spans.Part) string {
	switch p.Kind {
	case spans.PartDB, spans.PartCache:
		if p.Span != "" {
			return p.Kind + " " + units.Escape(p.Span) // span names are the target's text
		}
		return p.Kind
	case spans.PartHTTP:
		return "http " + units.Escape(p.Name)
	}
	return p.Kind
}

// groupLine is a group's mean and its largest parts, as shares.
func groupLine(g *spans.Group, parts int) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s (%s): ", units.Duration(g.Duration), units.CountOf(int64(g.Traces), "trace", "traces"))
	for i, p := range g.Parts {
		if i == parts {
			break
		}
		if i > 0 {
			sb.WriteString(", ")
		}
		fmt.Fprintf(&sb, "%s %s", partLabel(p), units.Share(g.Share(p)))
	}
	return sb.String()
}

// writeTraces writes where the sampled requests' time went, per endpoint,
// and the trace ids of the slowest and failed requests.
func writeTraces(sb *strings.Builder, in *Input) {
	t := in.Traces
	if t == nil {
		return
	}
	if st := t.Stats; st.Receiver {
		fmt.Fprintf(sb, "  WHERE THE TIME WENT  (%s of %s sampled requests joined with the target's spans)\n",
			units.Count(int64(st.Sampled-st.Unjoined)), units.Count(int64(st.Sampled)))
		for _, b := range t.Breakdowns {
			fmt.Fprintf(sb, "  %s\n", endpointLabel(in.Run, int(b.Endpoint)))
			sb.WriteString(units.Wrap(groupLine(&b.Median, 4), units.Columns, "    median  ", "            "))
			sb.WriteString(units.Wrap(groupLine(&b.Tail, 4), units.Columns, "    ≥ p95   ", "            "))
			for i, s := range b.Statements {
				if i == 3 {
					break
				}
				sb.WriteString(units.Wrap(fmt.Sprintf("%s %s: %s, %s in all, at most %s", s.Kind, units.Escape(s.Span), units.CountOf(int64(s.Calls), "call", "calls"),
					units.Duration(s.Total), units.Duration(s.Max)), units.Columns, "    ", "      "))
			}
		}
		sb.WriteString("\n")
	}
	if !t.Kept() || (t.UI == "" && !t.Stats.Receiver && !t.sampledKept()) {
		return // failures' ids alone, of a test that traces nothing: run.db and report.html have them
	}
	sb.WriteString("  TRACES  (the slowest sampled requests per endpoint")
	if t.UI != "" {
		sb.WriteString("; open one at " + t.UI)
	}
	sb.WriteString(")\n")
	for e := range t.Slowest {
		if len(t.Slowest[e]) == 0 && len(t.Failed[e]) == 0 {
			continue
		}
		fmt.Fprintf(sb, "  %s\n", endpointLabel(in.Run, e))
		for i, k := range t.Slowest[e] {
			if i == 3 {
				break
			}
			fmt.Fprintf(sb, "    %s  %s\n", units.Duration(k.Duration), k.Trace)
		}
		if f := t.Failed[e]; len(f) > 0 {
			fmt.Fprintf(sb, "    failed: %s  %s (%s)\n", f[0].Trace, f[0].Err, units.CountOf(int64(len(f)), "failure kept", "failures kept"))
		}
	}
	sb.WriteString("\n")
}
