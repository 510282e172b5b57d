package compare

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// WriteMarkdown writes the comparison as GitHub-flavoured Markdown, for a
// pull request comment or a CI job summary.
func WriteMarkdown(w io.Writer, r *Report) error {
	var b strings.Builder
	b.WriteString("## Run comparison\n\n| | run | model | compared seconds | note |\n| --- | --- | --- | --- | --- |\n")
	for i, ri := range r.Runs {
		role := ri.Label + mdCell(mark(r.Groups[ri.Group]))
		if i == 0 {
			role += " (baseline)"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", role, mdCell(ri.Name), ri.Model, partText(ri), mdCell(ri.Note))
	}
	if len(r.Scaling) > 0 {
		b.WriteString("\n### Load and throughput\n\n")
		for _, s := range r.Scaling {
			fmt.Fprintf(&b, "- **%s**: %s\n", s.Group, mdCell(s.Text))
		}
	}
	for _, row := range r.Rows {
		cells := tableCells(r, row)
		fmt.Fprintf(&b, "\n### %s\n\n", mdCell(row.Name))
		head := cells[0]
		head[0] = "metric"
		b.WriteString("| " + strings.Join(mdRow(head), " | ") + " |\n|")
		for i := range head {
			if i == 0 {
				b.WriteString(" --- |")
			} else {
				b.WriteString(" ---: |")
			}
		}
		b.WriteString("\n")
		for _, line := range cells[1:] {
			b.WriteString("| " + strings.Join(mdRow(line), " | ") + " |\n")
		}
	}
	b.WriteString("\n")
	for _, l := range legend(r) {
		b.WriteString(mdCell(l) + "  \n")
	}
	for _, n := range r.Notes {
		b.WriteString("\n> " + mdCell(n) + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// mdRow escapes every cell of a row.
func mdRow(cells []string) []string {
	out := make([]string, len(cells))
	for i, c := range cells {
		out[i] = mdCell(c)
	}
	return out
}

// mdCell makes text from a run (names, notes) safe in a table cell: no
// pipes, no line breaks, no markup that would render.
func mdCell(s string) string {
	r := strings.NewReplacer("|", `\|`, "\n", " ", "\r", " ", "<", "&lt;", ">", "&gt;", "`", "\\`", "*", `\*`, "_", `\_`, "[", `\[`, "]", `\]`, "~", `\~`)
	return r.Replace(s)
}

// WriteJSON writes the comparison as indented JSON.
func WriteJSON(w io.Writer, r *Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false) // for people and scripts, not for embedding in HTML
	return enc.Encode(r)
}
