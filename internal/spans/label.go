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
// briefs are alike. The label is the Span of their parts and statements.
func relabel(traces []Trace, stmts []Statement) {
	type key struct {
		endpoint int32
		span     string
	}
	names := map[key][]string{}
	for _, s := range stmts {
		k := key{s.Endpoint, s.Span}
		if s.Kind == PartDB && s.Name != s.Span && !slices.Contains(names[k], s.Name) {
			names[k] = append(names[k], s.Name)
		}
	}
	type stmtKey struct {
		endpoint int32
		name     string
	}
	label := map[stmtKey]string{}
	for k, ns := range names {
		if len(ns) < 2 {
			continue
		}
		briefs := map[string]int{}
		for _, n := range ns {
			briefs[Brief(n)]++
		}
		for _, n := range ns {
			l := Brief(n)
			if briefs[l] > 1 {
				l = n
			}
			label[stmtKey{k.endpoint, n}] = l
		}
	}
	if len(label) == 0 {
		return
	}
	for i := range stmts {
		if l, ok := label[stmtKey{stmts[i].Endpoint, stmts[i].Name}]; ok && stmts[i].Kind == PartDB {
			stmts[i].Span = l
		}
	}
	for i := range traces {
		for j := range traces[i].Parts {
			p := &traces[i].Parts[j]
			if l, ok := label[stmtKey{traces[i].Endpoint, p.Name}]; ok && p.Kind == PartDB {
				p.Span = l
			}
		}
	}
}
