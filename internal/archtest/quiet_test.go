package archtest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestQuietTestsRunAlone checks that every test judging timing on a quiet
// host (a call of judgeOnQuietHost, JudgeOnQuietHost or judgeFindings) is
// in scripts/test's quiet list, which runs them with nothing beside: in a
// lane beside other packages it would judge a busy host.
func TestQuietTestsRunAlone(t *testing.T) {
	root := filepath.Join("..", "..")
	script, err := os.ReadFile(filepath.Join(root, "scripts", "test"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^quiet='([^']+)'`).FindSubmatch(script)
	if m == nil {
		t.Fatal("scripts/test has no quiet='...' list")
	}
	listed := regexp.MustCompile(string(m[1]))
	judged := quietTests(t, root)
	if len(judged) == 0 {
		t.Fatal("found no test that judges on a quiet host: the search is broken")
	}
	for _, name := range judged {
		if !listed.MatchString(name) {
			t.Errorf("%s judges timing on a quiet host but is not in scripts/test's quiet list", name)
		}
	}
}

// quietTests lists the Test functions under e2e and internal whose body
// calls one of the quiet-host judges.
func quietTests(t *testing.T, root string) []string {
	judges := map[string]bool{"judgeOnQuietHost": true, "JudgeOnQuietHost": true, "JudgeOnQuietVM": true, "judgeFindings": true}
	var names []string
	for _, dir := range []string{"e2e", "internal"} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, "_test.go") || strings.Contains(path, "testkit") {
				return err
			}
			f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
			if err != nil {
				return err
			}
			for _, decl := range f.Decls {
				fn, ok := decl.(*ast.FuncDecl)
				if ok && strings.HasPrefix(fn.Name.Name, "Test") && calls(fn.Body, judges) {
					names = append(names, fn.Name.Name)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return names
}

// calls reports whether body calls a function named in names.
func calls(body ast.Node, names map[string]bool) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			switch f := c.Fun.(type) {
			case *ast.Ident:
				found = found || names[f.Name]
			case *ast.SelectorExpr:
				found = found || names[f.Sel.Name]
			}
		}
		return !found
	})
	return found
}
