package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/loadlens/loadlens/internal/capacity"
	"github.com/loadlens/loadlens/internal/testkit"
	"github.com/loadlens/loadlens/internal/units"
)

// A capacity search of a test is part of its history: `history` lists its
// highest sustainable rate beside the runs' columns, `history <test>`
// lists the search, history.html shows it linked to its capacity.html, and
// the index rebuilt from the directories (history.db deleted) still has it;
// with --store, a shared PostgreSQL has it too.
func TestHistoryListsCapacity(t *testing.T) {
	if testing.Short() {
		t.Skip("three runs and a capacity search of four 2-second steps")
	}
	n := newNightlyTarget(t)
	for i := range 3 {
		n.run(i)
	}
	test := filepath.Join(n.dir, "nightly.yaml")
	src := fmt.Sprintf("name: nightly\nbase_url: %s\nthresholds:\n  http_req_duration: [\"p(95) < 1s\"]\nscenarios:\n  s:\n"+
		"    model: arrival-rate\n    rate: 10\n    duration: 5s\n    max_vus: 100\n    flow:\n      - get: /\n", n.url)
	if err := os.WriteFile(test, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := loadlens(t, n.dir, "capacity", test, "--store", "mysql://x"); r.code != 2 || !strings.Contains(r.stderr, "PostgreSQL URL") {
		t.Errorf("capacity --store mysql://x: exit %d, want 2 saying why\n%s", r.code, r.stderr)
	}
	dsn := testkit.StartPostgres(t)
	r := loadlens(t, n.dir, "capacity", test, "--hold", "2s", "--budget", "8s", "--start", "5", "--factor", "2", "--store", dsn)
	if r.code != 0 {
		t.Fatalf("capacity exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	files, _ := filepath.Glob(filepath.Join(n.dir, "results", "*", "capacity.json"))
	if len(files) != 1 {
		t.Fatalf("capacity.json: %v", files)
	}
	var res capacity.Result
	if raw, err := os.ReadFile(files[0]); err != nil || json.Unmarshal(raw, &res) != nil || res.Highest == 0 {
		t.Fatalf("capacity.json: %v, highest %v\n%s", err, res.Highest, r.stdout)
	}
	search := filepath.Base(filepath.Dir(files[0]))
	figure := units.Rate(res.Highest, "iter")
	check := func(when string) {
		t.Helper()
		list := loadlens(t, n.dir, "history")
		if list.code != 0 || !strings.Contains(list.stdout, "CAPACITY") || !strings.Contains(list.stdout, figure) || !regexp.MustCompile(`nightly +4 `).MatchString(list.stdout) {
			t.Errorf("%s: history exit %d, want the 3 runs and the search (4), capacity %s:\n%s%s", when, list.code, figure, list.stdout, list.stderr)
		}
		one := loadlens(t, n.dir, "history", "nightly", "--html")
		if one.code != 0 || !strings.Contains(one.stdout, search) || !strings.Contains(one.stdout, figure+"  "+units.Rate(res.HighestRequests, "req")) {
			t.Errorf("%s: history nightly exit %d, want search %s at %s:\n%s%s", when, one.code, search, figure, one.stdout, one.stderr)
		}
		page, err := os.ReadFile(filepath.Join(n.dir, "results", "history.html"))
		if err != nil || !strings.Contains(string(page), "Capacity: "+units.Rate(res.Highest, "iterations")) ||
			!strings.Contains(string(page), `<a href="`+search+`/capacity.html">`) {
			t.Errorf("%s: history.html lacks the search's capacity or its link (%v)", when, err)
		}
	}
	check("as recorded")
	// the shared store has it too, read where no results folder is
	if shared := loadlens(t, t.TempDir(), "history", "--store", dsn); shared.code != 0 || !strings.Contains(shared.stdout, figure) {
		t.Errorf("history --store exit %d, want the search's capacity %s:\n%s%s", shared.code, figure, shared.stdout, shared.stderr)
	}
	if err := os.Remove(filepath.Join(n.dir, "results", "history.db")); err != nil {
		t.Fatal(err)
	}
	check("rebuilt from the directories")
}
