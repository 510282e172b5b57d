package archtest

import (
	"fmt"
	"os/exec"
	"slices"
	"sort"
	"strings"
	"testing"
)

// modulePath is the module whose packages the table judges.
const modulePath = "github.com/loadlens/loadlens"

// node is what one package of the module imports, as go list reports it:
// the module's packages (by table name) and third-party modules, apart for
// the package and for its tests.
type node struct {
	imports, tests []string // the module's packages
	modules        []string // third-party modules, the tests' included
}

// graph lists every package of the module with what it imports. The
// module of each third-party import comes from go list -deps. Both read
// the files built with -tags demobackends too (the demo's Redis client).
func graph(t *testing.T) map[string]node {
	t.Helper()
	out, err := exec.Command("go", "list", "-tags", "demobackends", "-f",
		`{{.ImportPath}}|{{join .Imports " "}}|{{join .TestImports " "}} {{join .XTestImports " "}}`, modulePath+"/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	deps, err := exec.Command("go", "list", "-tags", "demobackends", "-deps", "-test", "-f", `{{.ImportPath}} {{with .Module}}{{.Path}}{{end}}`, modulePath+"/...").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	moduleOf := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(deps)), "\n") {
		if f := strings.Fields(line); len(f) == 2 && f[1] != modulePath {
			moduleOf[f[0]] = f[1]
		}
	}
	g := map[string]node{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		parts := strings.Split(line, "|")
		name, ok := tableName(parts[0])
		if !ok {
			continue
		}
		var n node
		for i, list := range []*[]string{&n.imports, &n.tests} {
			for _, imp := range strings.Fields(parts[i+1]) {
				if dep, ok := tableName(imp); ok && dep != name {
					*list = append(*list, dep)
				} else if m := moduleOf[imp]; m != "" {
					n.modules = append(n.modules, m)
				}
			}
		}
		n.tests = without(uniq(n.tests), n.imports)
		n.imports, n.modules = uniq(n.imports), uniq(n.modules)
		g[name] = n
	}
	return g
}

// tableName is a package's name in the table: its path in the module,
// without "internal/" for the internal packages; false outside the module.
func tableName(importPath string) (string, bool) {
	rel, ok := strings.CutPrefix(importPath, modulePath+"/")
	if !ok {
		return "", false
	}
	return strings.TrimPrefix(rel, "internal/"), true
}

func uniq(list []string) []string {
	out := slices.Clone(list)
	sort.Strings(out)
	return slices.Compact(out)
}

func without(list, drop []string) []string {
	return slices.DeleteFunc(list, func(s string) bool { return slices.Contains(drop, s) })
}

// goTable writes the graph as the Go source of a table, for a maintainer
// who changed the imports on purpose (ARCHTEST_PRINT=1).
func goTable(g map[string]node) string {
	var names []string
	for name := range g {
		names = append(names, name)
	}
	sort.Strings(names)
	quote := func(list []string) string {
		q := make([]string, len(list))
		for i, s := range list {
			q[i] = fmt.Sprintf("%q", s)
		}
		return strings.Join(q, ", ")
	}
	var b strings.Builder
	for _, name := range names {
		n := g[name]
		fmt.Fprintf(&b, "\t%q: {imports: []string{%s}, tests: []string{%s}, modules: []string{%s}},\n", name, quote(n.imports), quote(n.tests), quote(n.modules))
	}
	return b.String()
}
