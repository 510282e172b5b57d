package output

import (
	"encoding/json"
	"os"
	"regexp"
	"slices"
	"testing"
)

// dashboardExprs returns every PromQL expression of the Grafana dashboard:
// its panels' targets and its variables' queries.
func dashboardExprs(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile("../../deploy/grafana/loadlens.json")
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		Panels []struct {
			Title   string
			Targets []struct{ Expr string }
		}
		Templating struct {
			List []struct {
				Type  string
				Query json.RawMessage
			}
		}
	}
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatalf("the dashboard is not JSON: %v", err)
	}
	var out []string
	for _, p := range d.Panels {
		if len(p.Targets) == 0 {
			t.Errorf("panel %q queries nothing", p.Title)
		}
		for _, tg := range p.Targets {
			out = append(out, tg.Expr)
		}
	}
	for _, v := range d.Templating.List {
		if v.Type != "query" {
			continue
		}
		var q struct{ Query string }
		if err := json.Unmarshal(v.Query, &q); err != nil || q.Query == "" {
			t.Fatalf("variable query %s: %v", v.Query, err)
		}
		out = append(out, q.Query)
	}
	return out
}

// TestDashboardQueriesWhatIsWritten: every series the Grafana dashboard
// queries is one the remote-write sink writes, with labels it writes, and
// the dashboard shows every series (of a trend's stats, some).
func TestDashboardQueriesWhatIsWritten(t *testing.T) {
	names := PromSeriesNames()
	labels := []string{"testid", "scenario", "endpoint", "name", "method", "status", "expected_response", "kind", "check"}
	series := regexp.MustCompile(`\b(?:k6|loadlens)_[a-z0-9_]+\b`)
	matchers := regexp.MustCompile(`([a-z_]+)\s*(?:=~|!~|!=|=)\s*"`)
	grouping := regexp.MustCompile(`\b(?:by|without)\s*\(([^)]*)\)|label_values\([^,]*,\s*([a-z_]+)\)`)
	used := map[string]bool{}
	exprs := dashboardExprs(t)
	if len(exprs) < 10 {
		t.Fatalf("only %d expressions in the dashboard", len(exprs))
	}
	for _, e := range exprs {
		found := series.FindAllString(e, -1)
		if len(found) == 0 {
			t.Errorf("%q queries no loadlens series", e)
		}
		for _, s := range found {
			if !slices.Contains(names, s) {
				t.Errorf("%q queries %s, which the remote-write sink does not write (it writes %v)", e, s, names)
			}
			used[s] = true
		}
		for _, m := range matchers.FindAllStringSubmatch(e, -1) {
			if !slices.Contains(labels, m[1]) {
				t.Errorf("%q matches on label %q, which no series carries", e, m[1])
			}
		}
		for _, g := range grouping.FindAllStringSubmatch(e, -1) {
			for _, l := range regexp.MustCompile(`[a-z_]+`).FindAllString(g[1]+" "+g[2], -1) {
				if !slices.Contains(labels, l) {
					t.Errorf("%q groups by label %q, which no series carries", e, l)
				}
			}
		}
	}
	// a trend's stats are one family: the dashboard shows some of each
	family := regexp.MustCompile(`_(min|max|avg|med|p90|p95|p99)$`)
	shown := map[string]bool{}
	for n := range used {
		shown[family.ReplaceAllString(n, "")] = true
	}
	for _, n := range names {
		if !shown[family.ReplaceAllString(n, "")] {
			t.Errorf("the dashboard shows nothing of %s", n)
		}
	}
}
