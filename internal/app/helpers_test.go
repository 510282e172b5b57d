package app

import (
	"testing"

	"github.com/loadlens/loadlens/internal/plan"
)

func parseTest(t *testing.T, yaml string) *plan.Plan {
	t.Helper()
	p, err := plan.Parse("capacity.yaml", []byte(yaml), nil)
	if err != nil {
		t.Fatal(err)
	}
	return p
}
