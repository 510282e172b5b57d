package app

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/loadlens/loadlens/internal/estimate"
)

func TestEstimateInstancesFromACapacitySearch(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "capacity.json"), []byte(`{"Highest": 125}`), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	err := Estimate(EstimateConfig{Input: estimate.Input{RPS: 1000, Headroom: 1}, FromRun: dir, RunInst: 1, Out: &out})
	if err != nil {
		t.Fatal(err)
	}
	flat := strings.Join(strings.Fields(out.String()), " ") // a formula may wrap anywhere
	if !strings.Contains(flat, "capacity search") || !strings.Contains(flat, "= 8 ") || !strings.Contains(flat, "(125/s over 1 instance)") {
		t.Fatalf("want 1000/s ÷ 125/s per instance = 8 instances, from 125/s over 1 instance:\n%s", out.String())
	}
	for i, line := range strings.Split(out.String(), "\n") {
		if n := utf8.RuneCountInString(line); n > 100 {
			t.Errorf("line %d is %d columns wide:\n%s", i+1, n, line)
		}
	}
}
