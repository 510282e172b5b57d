package app

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

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
	if !strings.Contains(out.String(), "capacity search") || !strings.Contains(out.String(), "= 8 ") {
		t.Fatalf("want 1000/s ÷ 125/s per instance = 8 instances:\n%s", out.String())
	}
}
