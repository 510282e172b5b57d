package spans

import "slices"

// maxCached bounds the statements whose normalized text a namer keeps:
// past it, statements are normalized on every call, which costs time, not
// memory.
const maxCached = 10_000

// namer names the database calls of one Join: each statement normalized
// once, and at most MaxStatements statements and cache operations per
// endpoint.
type namer struct {
	norm map[string]string         // raw statement → normalized
	kept map[int32]map[string]bool // per endpoint, the kind and name of each statement kept
}

func newNamer() *namer {
	return &namer{norm: map[string]string{}, kept: map[int32]map[string]bool{}}
}

// statement names a database call by its statement, normalized, or by
// the span's name when the statement was not recorded.
func (n *namer) statement(s *Span) string {
	if s.Statement == "" {
		return s.Name
	}
	if q, ok := n.norm[s.Statement]; ok {
		return q
	}
	q := normalize(s.Statement)
	if q == "" {
		q = s.Name
	}
	if len(n.norm) < maxCached {
		n.norm[s.Statement] = q
	}
	return q
}

// keep reports whether an endpoint's statement or operation has a name
// of its own: it has one already, or the endpoint has fewer than
// MaxStatements.
func (n *namer) keep(endpoint int32, kind, name string) bool {
	m := n.kept[endpoint]
	if m == nil {
		m = map[string]bool{}
		n.kept[endpoint] = m
	}
	k := kind + "\x00" + name
	if m[k] {
		return true
	}
	if len(m) >= MaxStatements {
		return false
	}
	m[k] = true
	return true
}

// relabel gives the statements of an endpoint that share a span name
// ("SELECT postgres.owners" for a count(*) and a page query alike) labels
// that tell them apart: each one's statement in brief, or whole when the
// briefs are alike. The label is the Span of the breakdown's statements
// and parts; run.db keeps the spans' own names, so files written before
// this read the same.
func relabel(b *Breakdown) {
	byspan := map[string][]string{}
	for _, s := range b.Statements {
		if s.Kind == PartDB && s.Name != s.Span && !slices.Contains(byspan[s.Span], s.Name) {
			byspan[s.Span] = append(byspan[s.Span], s.Name)
		}
	}
	label := map[string]string{} // statement → label
	for _, ns := range byspan {
		if len(ns) < 2 {
			continue
		}
		briefs := map[string]int{}
		for _, n := range ns {
			briefs[Brief(n)]++
		}
		for _, n := range ns {
			if l := Brief(n); briefs[l] == 1 {
				label[n] = l
			} else {
				label[n] = n
			}
		}
	}
	if len(label) == 0 {
		return
	}
	set := func(ps []Part) {
		for i := range ps {
			if l, ok := label[ps[i].Name]; ok && ps[i].Kind == PartDB {
				ps[i].Span = l
			}
		}
	}
	for i := range b.Statements {
		if l, ok := label[b.Statements[i].Name]; ok && b.Statements[i].Kind == PartDB {
			b.Statements[i].Span = l
		}
	}
	set(b.All.Parts)
	set(b.Median.Parts)
	set(b.Tail.Parts)
}
