package app

import (
	"slices"
	"testing"

	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/sample"
)

func TestBodyCaps(t *testing.T) {
	step := func(ep int32, maxBody int64) plan.Step {
		return plan.Step{Kind: plan.RequestStep, Request: &plan.Request{Endpoint: ep, MaxBody: maxBody}}
	}
	p := &plan.Plan{
		Layout: sample.Layout{Endpoints: make([]sample.EndpointInfo, 4)},
		Scenarios: []*plan.Scenario{
			{Flow: []plan.Step{step(0, 1<<20), {Kind: plan.ThinkStep}, step(1, 64<<10), step(0, 1<<20)}},
			{Flow: []plan.Step{step(1, 1<<20), step(2, 4096)}},
		},
	}
	// Endpoint 1's steps differ, and endpoint 3 has none: neither names a cap.
	want := []int64{1 << 20, 0, 4096, 0}
	got := bodyCaps(p)
	if !slices.Equal(got, want) {
		t.Errorf("bodyCaps = %v, want %v", got, want)
	}
	if back := decodeBodyCaps(encodeBodyCaps(got)); !slices.Equal(back, want) {
		t.Errorf("round trip through run.db's meta = %v", back)
	}
	if decodeBodyCaps("") != nil || decodeBodyCaps("{bad") != nil {
		t.Error("a run without caps, or a corrupt entry, must read as no caps")
	}
}
