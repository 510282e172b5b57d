package archtest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// maxFuncLines is the longest a production function may be: one that does
// not fit a screen hides what it does (DEVELOPERS.md).
const maxFuncLines = 80

// TestFunctionsFitAScreen fails on every production function under
// internal/, cmd/ and bench/ (its measuring programs are kept code too)
// longer than maxFuncLines, naming it.
func TestFunctionsFitAScreen(t *testing.T) {
	root := filepath.Join("..", "..")
	seen := 0
	for _, dir := range []string{"internal", "cmd", "bench"} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return err
			}
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, path, nil, 0)
			if err != nil {
				return err
			}
			for _, decl := range f.Decls {
				fn, ok := decl.(*ast.FuncDecl)
				if !ok || fn.Body == nil {
					continue
				}
				seen++
				if n := fset.Position(fn.End()).Line - fset.Position(fn.Pos()).Line + 1; n > maxFuncLines {
					t.Errorf("%s: %s is %d lines, over %d: split it", strings.TrimPrefix(path, root+"/"), fn.Name.Name, n, maxFuncLines)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if seen < 1000 {
		t.Errorf("read %d functions: the walk missed the tree", seen)
	}
}
