// Package archtest checks that imports flow one way, from the command
// towards the core: the engine knows nothing of reports, stores or
// dashboards, and the leaf packages know nothing of the rest.
package archtest

import (
	"os/exec"
	"sort"
	"strings"
	"testing"
)

const module = "github.com/loadlens/loadlens/internal/"

// allowed lists, for each internal package, the internal packages it may
// import. The pure packages (diagnose, compare, capacity, estimate) return
// data and never import report, web or live: report is the one layer that
// renders, every page in web's shell. diagnose's findings carry figures
// that report writes in their units; compare, capacity and estimate word
// their notes and formulas with units.
var allowed = map[string][]string{
	"sample":       {},
	"series":       {},
	"tmpl":         {},
	"jsonpath":     {},
	"web":          {},
	"units":        {},
	"golden":       {}, // compares tests' output with golden files; only tests import it
	"testkit":      {}, // helpers tests of several packages share; only tests import it
	"live":         {"units", "web"},
	"promtext":     {},
	"demo":         {"promtext"},
	"threshold":    {"sample"},
	"spans":        {"sample"},
	"otlp":         {"sample", "spans"},
	"plan":         {"sample", "series", "tmpl", "jsonpath", "threshold"},
	"engine":       {"plan", "sample", "tmpl", "jsonpath", "units"},
	"metrics":      {"sample", "threshold", "units"}, // units for the counts in threshold reasons
	"store":        {"metrics", "sample", "series", "spans", "threshold"},
	"scrape":       {"plan", "series"},
	"diagnose":     {"metrics", "series", "sample", "spans", "units"}, // units only for nouns: report writes the figures
	"estimate":     {"metrics", "sample", "threshold", "units"},
	"compare":      {"metrics", "sample", "threshold", "units"},
	"capacity":     {"metrics", "sample", "threshold", "units"},
	"history":      {"compare"}, // compare's Student's t quantile
	"historystore": {"history"},
	"historypg":    {"history", "historystore"}, // the one package that speaks PostgreSQL (pgx) for history
	"report":       {"capacity", "compare", "diagnose", "estimate", "history", "metrics", "sample", "series", "spans", "threshold", "units", "web"},
	"output":       {"metrics", "plan", "sample"},
	"app":          {"capacity", "compare", "demo", "diagnose", "engine", "estimate", "history", "historypg", "historystore", "live", "metrics", "otlp", "output", "plan", "report", "sample", "scrape", "series", "spans", "store", "threshold", "units"},
	"mock":         {"plan", "promtext", "tmpl", "jsonpath"},
	"importer":     {"plan", "tmpl", "units"},
	"dist":         {"app", "diagnose", "engine", "metrics", "plan", "report", "sample", "series", "units"},
	"cli":          {"app", "capacity", "demo", "dist", "estimate", "history", "importer", "k8s", "live", "mock", "plan", "units"},
	"k8s":          {"plan", "units"},
	"archtest":     {},
	// faultserver serves faults to tests; no package may import it (test imports are not listed)
	"faultserver": {},
}

func TestImportsFlowOneWay(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}} {{join .Imports " "}}`, "github.com/loadlens/loadlens/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	seen := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		pkg, ok := strings.CutPrefix(fields[0], module)
		if !ok {
			continue
		}
		pkg = strings.SplitN(pkg, "/", 2)[0]
		allow, known := allowed[pkg]
		if !known {
			t.Errorf("package internal/%s is not in the import table of arch_test.go: add it with what it may import", pkg)
			continue
		}
		seen++
		for _, imp := range fields[1:] {
			dep, internal := strings.CutPrefix(imp, module)
			if !internal {
				continue
			}
			dep = strings.SplitN(dep, "/", 2)[0]
			if dep != pkg && !contains(allow, dep) {
				t.Errorf("internal/%s imports internal/%s; allowed: %s", pkg, dep, strings.Join(sorted(allow), ", "))
			}
		}
	}
	if seen < 10 {
		t.Fatalf("only %d internal packages listed; is the module path right?", seen)
	}
}

func TestOnlyMetricsUsesHdrHistogram(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}} {{join .Imports " "}}`, "github.com/loadlens/loadlens/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, line := range strings.Split(string(out), "\n") {
		if strings.Contains(line, "hdrhistogram-go") && !strings.HasPrefix(line, module+"metrics ") {
			t.Errorf("only internal/metrics may use hdrhistogram-go: %s", strings.Fields(line)[0])
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func sorted(list []string) []string {
	out := append([]string(nil), list...)
	sort.Strings(out)
	return out
}
