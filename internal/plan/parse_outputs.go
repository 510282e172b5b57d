package plan

import "github.com/loadlens/loadlens/internal/yamldoc"

// outputs parses the outputs list: KIND=URL strings, as --out takes them.
func (p *parser) outputs(n yamldoc.Node) []Output {
	items, ok := p.List(n, "a list of KIND=URL strings, like - prometheus-rw=http://127.0.0.1:9090/api/v1/write")
	if !ok {
		return nil
	}
	var out []Output
	for _, item := range items {
		s, ok := p.NonEmpty(item, "a KIND=URL string")
		if !ok {
			continue
		}
		p.noteRedacted(item, RedactOutput)
		o, err := ParseOutput(s)
		if err != nil {
			p.Errs.Add(item.Pos, item.Path, "%v", err)
			continue
		}
		out = append(out, o)
	}
	return out
}
