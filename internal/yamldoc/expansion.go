package yamldoc

import (
	"github.com/goccy/go-yaml/ast"

	"github.com/loadlens/loadlens/internal/units"
)

// overBudget reports that the file expands past maxNodes, as the only
// error: the values left unread then fail every field they were meant to
// fill ("a step needs a request" at a valid step), which says nothing of
// the cause. It names the alias that expands the most, where it is written.
func (d *Doc) overBudget(n ast.Node, key Pos, path string) {
	at := key
	if at == (Pos{}) {
		at = NodePos(n)
	}
	msg := "the file expands to more than " + units.Count(int64(maxNodes)) + " values"
	if alias, size := d.largestAlias(); alias != nil {
		name := ""
		if alias.Value != nil {
			name = alias.Value.GetToken().Value
		}
		at, path = NodePos(alias), ""
		if size > maxNodes {
			msg += ": the alias *" + name + " here alone stands for more"
		} else {
			msg += ", " + units.Count(int64(size)) + " of them from the alias *" + name + " here"
		}
		msg += " (an alias of aliases multiplies them); write fewer levels of aliases (a flow loops with repeat:)"
	} else {
		msg += "; are aliases nested too deep?"
	}
	if e := d.Errs.record(at, path, "%s", msg); e != nil {
		d.Errs.only = e
	}
}

// largestAlias returns the alias whose value expands to the most values,
// and how many (counted up to just past maxNodes).
func (d *Doc) largestAlias() (*ast.AliasNode, int) {
	memo := map[ast.Node]int{}
	var best *ast.AliasNode
	most := 0
	for alias, target := range d.aliases {
		// of aliases past the budget alike, the last written: an anchor is used after it is
		// defined, so the last is the outermost (the flow's, not an x- key's inner one)
		if size := expandedSize(target, d.aliases, memo, 0); size > most || (size == most && later(NodePos(alias), NodePos(best))) {
			best, most = alias, size
		}
	}
	return best, most
}

// later reports whether a is written after b.
func later(a, b Pos) bool { return a.Line > b.Line || (a.Line == b.Line && a.Col > b.Col) }

// expandedSize counts the values n stands for with its aliases expanded,
// stopping just past maxNodes; memo keeps each node's count, so a node
// shared by many aliases is counted once.
func expandedSize(n ast.Node, aliases map[*ast.AliasNode]ast.Node, memo map[ast.Node]int, depth int) int {
	if n == nil || depth > 64 { // deeper than resolve follows
		return 1
	}
	if size, ok := memo[n]; ok {
		return size
	}
	size := 1
	add := func(c ast.Node) { size = min(size+expandedSize(c, aliases, memo, depth+1), maxNodes+1) }
	switch v := n.(type) {
	case *ast.MappingNode:
		for _, mv := range v.Values {
			add(mv.Key) // a key is a value read too
			add(mv.Value)
		}
	case *ast.MappingValueNode:
		add(v.Key)
		add(v.Value)
	case *ast.SequenceNode:
		for _, e := range v.Values {
			add(e)
		}
	case *ast.AnchorNode:
		size = expandedSize(v.Value, aliases, memo, depth+1)
	case *ast.TagNode:
		size = expandedSize(v.Value, aliases, memo, depth+1)
	case *ast.AliasNode:
		size = expandedSize(aliases[v], aliases, memo, depth+1)
	}
	memo[n] = size
	return size
}
