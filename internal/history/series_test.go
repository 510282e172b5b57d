package history

import (
	"fmt"
	"testing"
	"time"
)

// runOf is a completed run of test name and shape with one endpoint's p95.
func runOf(name, shape string, i int, p95ms float64) Run {
	return Run{ID: fmt.Sprintf("%s-%03d", name, i), Host: "h", Name: name, Status: "completed", Shape: shape, ShapeID: "id-" + shape,
		Start:     time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Hour),
		Endpoints: []Endpoint{{Name: "GET /", Requests: 100, RPS: 10, P50: time.Duration(p95ms * 0.5 * 1e6), P95: time.Duration(p95ms * 1e6), P99: time.Duration(p95ms * 1.2 * 1e6)}}}
}

func TestGroupSplitsByNameAndShape(t *testing.T) {
	var runs []Run
	for i := range 6 {
		runs = append(runs, runOf("shop", "10/s", i, 100))
	}
	for i := 6; i < 9; i++ {
		runs = append(runs, runOf("shop", "50/s", i, 400)) // another load: never the same series
	}
	runs = append(runs, runOf("other", "10/s", 3, 100))
	tests := Group(runs, DefaultMethod)
	if len(tests) != 2 || tests[0].Name != "shop" || tests[1].Name != "other" {
		t.Fatalf("tests %v, want shop then other (newest first)", names(tests))
	}
	shop := tests[0]
	if len(shop.Series) != 2 || len(shop.Series[0].Runs) != 6 || len(shop.Series[1].Runs) != 3 {
		t.Fatalf("shop's series: %d, want 6 runs then 3", len(shop.Series))
	}
	if len(shop.Shifts) != 1 || shop.Shifts[0].Run.ID != "shop-006" || shop.Shifts[0].From != "10/s" || shop.Shifts[0].To != "50/s" {
		t.Errorf("shifts %+v, want one at shop-006 from 10/s to 50/s", shop.Shifts)
	}
	for _, s := range shop.Series {
		if len(s.Changes) != 0 {
			t.Errorf("series %s: changes %+v; a change of shape is no change point", s.Shape, s.Changes)
		}
	}
	if shop.Current() != shop.Series[1] {
		t.Error("the current series is not the newest run's")
	}
}

func TestRecentIsTheNewestRunsWorseChange(t *testing.T) {
	for _, tc := range []struct {
		name   string
		after  []float64
		within int
		want   int
	}{
		{"slower in the newest 3 runs", []float64{150, 150, 150}, 5, 1},
		{"faster is no failure", []float64{50, 50, 50}, 5, 0},
		{"an old change is no news", []float64{150, 150, 150, 150, 150, 150, 150, 150}, 5, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var runs []Run
			for i := range 10 {
				runs = append(runs, runOf("shop", "10/s", i, 100+float64(i%3)))
			}
			for i, v := range tc.after {
				runs = append(runs, runOf("shop", "10/s", 10+i, v+float64(i%2)))
			}
			s := Group(runs, DefaultMethod)[0].Current()
			if got := s.Recent(P95, tc.within); len(got) != tc.want {
				t.Errorf("Recent = %+v, want %d", got, tc.want)
			}
		})
	}
}

func names(ts []*Test) []string {
	var out []string
	for _, t := range ts {
		out = append(out, t.Name)
	}
	return out
}

// TestCapacitySearchesBesideRuns: a capacity search of a test is listed
// with it, in a series of its own, and changes neither the test's current
// series (what --fail-on-change judges), its newest run, nor its shifts.
func TestCapacitySearchesBesideRuns(t *testing.T) {
	var runs []Run
	for i := range 8 {
		runs = append(runs, runOf("shop", "10/s", i, 100))
	}
	search := func(i int, highest float64) Run {
		return Run{ID: fmt.Sprintf("capacity-shop-%03d", i), Host: "h", Name: "shop", Status: "completed", Shape: "capacity search", ShapeID: "id-search",
			Start: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(i)*time.Hour + time.Minute), Capacity: &Capacity{Highest: highest}}
	}
	runs = append(runs, search(3, 40), search(7, 55)) // the newest of all is a search
	shop := Group(runs, DefaultMethod)[0]
	if shop.Runs != 10 || len(shop.Series) != 2 {
		t.Fatalf("%d runs in %d series, want 10 in 2", shop.Runs, len(shop.Series))
	}
	if shop.Newest.ID != "shop-007" || shop.Current() == nil || shop.Current().ShapeID != "id-10/s" {
		t.Errorf("newest %s, current %+v: want the newest run's, not the search's", shop.Newest.ID, shop.Current())
	}
	if shop.Capacity == nil || shop.Capacity.ID != "capacity-shop-007" || shop.Capacity.Capacity.Highest != 55 {
		t.Errorf("capacity %+v, want the newest search's", shop.Capacity)
	}
	if len(shop.Shifts) != 0 {
		t.Errorf("shifts %+v: a search between runs of one load is no change of load", shop.Shifts)
	}
}
