package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/loadlens/loadlens/internal/compare"
)

// WriteCompareMarkdown writes a comparison as GitHub-flavoured Markdown, for a
// pull request comment or a CI job summary.
func WriteCompareMarkdown(w io.Writer, r *compare.Report) error {
	var b strings.Builder
	b.WriteString("## Run comparison\n\n| | run | model | compared seconds | note |\n| --- | --- | --- | --- | --- |\n")
	for i, ri := range r.Runs {
		role := ri.Label + mdEscape(mark(r.Groups[ri.Group]))
		if i == 0 {
			role += " (baseline)"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", role, mdEscape(runName(ri)), ri.Model, partText(ri), mdEscape(ri.Note))
	}
	if len(r.Scaling) > 0 {
		b.WriteString("\n### Load and throughput\n\n")
		for _, s := range r.Scaling {
			fmt.Fprintf(&b, "- **%s**: %s\n", s.Group, mdEscape(s.Text))
		}
	}
	if vs := compareVerdicts(r); len(vs) > 0 {
		b.WriteString("\n### Verdict\n\n")
		for _, v := range vs {
			b.WriteString("- " + mdEscape(v) + "\n")
		}
	}
	for _, row := range r.Rows {
		fmt.Fprintf(&b, "\n### %s\n\n", mdEscape(row.Name))
		if idleRow(row) {
			b.WriteString(idleText + "\n")
			continue
		}
		cells := tableCells(r, row, nil)
		head := cells[0]
		head[0] = "metric"
		b.WriteString("| " + strings.Join(mdEscapeAll(head), " | ") + " |\n|")
		for i := range head {
			if i == 0 {
				b.WriteString(" --- |")
			} else {
				b.WriteString(" ---: |")
			}
		}
		b.WriteString("\n")
		for _, line := range cells[1:] {
			b.WriteString("| " + strings.Join(mdEscapeAll(line), " | ") + " |\n")
		}
	}
	b.WriteString("\n")
	for _, l := range legend(r) {
		b.WriteString(mdEscape(l) + "  \n")
	}
	for _, n := range r.Notes {
		b.WriteString("\n> " + mdEscape(n) + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// mdEscapeAll escapes every cell of a row.
func mdEscapeAll(cells []string) []string {
	out := make([]string, len(cells))
	for i, c := range cells {
		out[i] = mdEscape(c)
	}
	return out
}
