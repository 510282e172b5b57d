package k6

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tdewolff/parse/v2/js"
)

// maxDoings is how many of a function's calls a refusal names.
const maxDoings = 6

// doings names what a script's default function does instead of sending
// load, each with its line: the functions it calls and its loops, in order,
// each once ("console.log (line 2), while (true) (line 3)").
func (s *script) doings() string {
	if s.def == nil {
		return "it has no default function"
	}
	w := &doingWalker{s: s, seen: map[string]bool{}, from: s.lineOf("export default")}
	js.Walk(w, &s.def.Body)
	if len(w.found) == 0 {
		return "its default function does nothing"
	}
	list := w.found
	more := ""
	if len(list) > maxDoings {
		list, more = list[:maxDoings], fmt.Sprintf(" and %d more", len(w.found)-maxDoings)
	}
	return "its default function runs " + strings.Join(list, ", ") + more
}

type doingWalker struct {
	s     *script
	seen  map[string]bool
	found []string
	from  int // the line searched from: the calls are met in the order written
}

func (w *doingWalker) Enter(n js.INode) js.IVisitor {
	what := ""
	switch x := n.(type) {
	case *js.CallExpr:
		obj, name := calleeName(x.X)
		if what = name; obj != "" {
			what = obj + "." + name
		}
		w.add(what, snippet(x))
	case *js.WhileStmt:
		w.add("while ("+snippet(x.Cond)+")", snippet(x))
	case *js.DoWhileStmt:
		w.add("do ... while ("+snippet(x.Cond)+")", snippet(x))
	case *js.ForStmt, *js.ForInStmt, *js.ForOfStmt:
		head, _, _ := strings.Cut(snippet(x.(js.IStmt)), "{")
		w.add(strings.TrimSpace(head), snippet(x.(js.IStmt)))
	}
	return w
}

// add records what, at the line of the code text, once.
func (w *doingWalker) add(what, text string) {
	if what == "" || w.seen[what] {
		return
	}
	w.seen[what] = true
	at := "the script"
	if line := w.s.lineFrom(text, w.from); line > 0 {
		at, w.from = "line "+strconv.Itoa(line), line
	}
	w.found = append(w.found, what+" ("+at+")")
}

func (*doingWalker) Exit(js.INode) {}
