package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestSchedTotalsNeverFall: a thread that exits keeps what it added, and a
// reused thread id starts afresh, so the totals read as counters.
func TestSchedTotalsNeverFall(t *testing.T) {
	dir := t.TempDir()
	tasks := filepath.Join(dir, "tasks")
	write := func(name, body string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var st schedTotals
	steps := []struct {
		tasks        string
		stats        map[string]string
		run, waiting float64
	}{
		{"10\n11\n", map[string]string{"10": "1000000000 500000000 9\n", "11": "2000000000 0 3\n"}, 3, 0.5},
		{"10\n", map[string]string{"10": "1500000000 1500000000 12\n"}, 3.5, 1.5},                                      // 11 exited: its 2 s stay
		{"10\n11\n", map[string]string{"10": "1500000000 1500000000 12\n", "11": "100000000 200000000 1\n"}, 3.6, 1.7}, // a new 11
	}
	for i, s := range steps {
		write("tasks", s.tasks)
		for tid, body := range s.stats {
			write(filepath.Join("proc", tid, "schedstat"), body)
		}
		run, queue, err := st.read(filepath.Join(dir, "proc"), tasks)
		if err != nil || run != s.run || queue != s.waiting {
			t.Errorf("step %d: run %v, queue %v, %v; want %v, %v", i, run, queue, err, s.run, s.waiting)
		}
		os.RemoveAll(filepath.Join(dir, "proc"))
	}
}
