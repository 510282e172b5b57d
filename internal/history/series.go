package history

import (
	"math"
	"sort"
)

// Series is the runs of one test under one load shape, oldest first: only
// these are compared with each other, as a different load gives different
// figures without anything having changed.
type Series struct {
	Name, Shape, ShapeID string
	Runs                 []Run
	Endpoints            []string // every endpoint of its runs, in the order first seen
	Changes              []Change // change points, by endpoint, figure and run
}

// Change is a change point of one endpoint's figure.
type Change struct {
	Endpoint string
	Figure   Figure
	Step          // At, From and To index Series.Runs
	Worse    bool // the new level is worse (slower, fewer requests/s, more errors)
}

// Test is one test's runs, split in series where the load shape changed.
type Test struct {
	Name   string
	Series []*Series // in order of their first run
	Runs   int       // how many runs in all, capacity searches included
	Newest Run       // the newest run, whatever its shape; a capacity search only when the test has no other run
	// Capacity is the newest capacity search's record; nil when none.
	Capacity *Run
	// Shifts are where the load shape changed, in order: each names the
	// first run of the new shape and both shapes.
	Shifts []Shift
}

// Shift is a change of load shape between two consecutive runs of a test.
type Shift struct {
	Run      Run // the first run with the new shape
	From, To string
}

// Group sorts runs into tests by name, each split into series by load
// shape, and finds every series' change points with m. Tests come newest
// first (by their newest run).
func Group(runs []Run, m Method) []*Test {
	byName := map[string][]Run{}
	for _, r := range runs {
		byName[r.Name] = append(byName[r.Name], r)
	}
	tests := make([]*Test, 0, len(byName))
	for name, rs := range byName {
		SortOldestFirst(rs)
		tests = append(tests, group(name, rs, m))
	}
	sort.Slice(tests, func(i, j int) bool {
		a, b := tests[i].Newest, tests[j].Newest
		if !a.Start.Equal(b.Start) {
			return a.Start.After(b.Start)
		}
		return tests[i].Name < tests[j].Name
	})
	return tests
}

func group(name string, rs []Run, m Method) *Test {
	t := &Test{Name: name, Runs: len(rs), Newest: rs[len(rs)-1]}
	for i := len(rs) - 1; i >= 0; i-- { // a search's series has no endpoints: the newest run's is the test's current one
		if rs[i].Capacity == nil {
			t.Newest = rs[i]
			break
		}
	}
	for i := len(rs) - 1; i >= 0 && t.Capacity == nil; i-- {
		if rs[i].Capacity != nil {
			t.Capacity = &rs[i]
		}
	}
	byShape := map[string]*Series{}
	var prev *Run // the run before, searches aside: a search between two runs is no change of their load
	for i, r := range rs {
		s := byShape[r.ShapeID]
		if s == nil {
			s = &Series{Name: name, Shape: r.Shape, ShapeID: r.ShapeID}
			byShape[r.ShapeID] = s
			t.Series = append(t.Series, s)
		}
		s.Runs = append(s.Runs, r)
		if r.Capacity != nil {
			continue
		}
		if prev != nil && prev.ShapeID != r.ShapeID {
			t.Shifts = append(t.Shifts, Shift{Run: r, From: prev.Shape, To: r.Shape})
		}
		prev = &rs[i]
	}
	for _, s := range t.Series {
		s.Endpoints = endpointNames(s.Runs)
		s.Changes = m.changes(s)
	}
	return t
}

// Current is the series of the test's newest run.
func (t *Test) Current() *Series {
	for _, s := range t.Series {
		if s.ShapeID == t.Newest.ShapeID {
			return s
		}
	}
	return nil
}

func endpointNames(rs []Run) []string {
	var names []string
	seen := map[string]bool{}
	for _, r := range rs {
		for _, e := range r.Endpoints {
			if !seen[e.Name] {
				seen[e.Name] = true
				names = append(names, e.Name)
			}
		}
	}
	return names
}

// Values is one endpoint's figure over the series' runs, as change points
// read it: NaN where a run is not analysed or has no such endpoint.
func (s *Series) Values(endpoint string, f Figure) []float64 {
	return s.values(endpoint, f, func(r *Run, e Endpoint) bool { return r.LeftOut(f, e) == "" })
}

// Shown is one endpoint's figure over the series' runs as tables and
// charts show it: NaN where a run did not complete or has no such
// endpoint. A run its generator disturbed is shown (its result says so),
// though Values leaves it out.
func (s *Series) Shown(endpoint string, f Figure) []float64 {
	return s.values(endpoint, f, func(r *Run, _ Endpoint) bool { return r.Status == "completed" })
}

func (s *Series) values(endpoint string, f Figure, keep func(*Run, Endpoint) bool) []float64 {
	xs := make([]float64, len(s.Runs))
	for i := range s.Runs {
		r := &s.Runs[i]
		xs[i] = math.NaN()
		if e, ok := r.Endpoint(endpoint); ok && keep(r, e) && e.Requests > 0 {
			xs[i] = f.Value(e)
		}
	}
	return xs
}

// changes finds the change points of every endpoint's every figure.
func (m Method) changes(s *Series) []Change {
	var out []Change
	m = m.Among(len(s.Endpoints) * len(Figures)) // a false alarm in any of them is one on the page
	for _, ep := range s.Endpoints {
		for _, f := range Figures {
			for _, st := range m.Detect(s.Values(ep, f), f.Relative()) {
				out = append(out, Change{Endpoint: ep, Figure: f, Step: st, Worse: f.Worse(st.Change)})
			}
		}
	}
	return out
}

// LevelStart is the index of the run where the newest level of endpoint's
// figure f begins: its last change point's, 0 when it has none.
func (s *Series) LevelStart(endpoint string, f Figure) int {
	start := 0
	for _, c := range s.Changes {
		if c.Endpoint == endpoint && c.Figure == f {
			start = max(start, c.At)
		}
	}
	return start
}

// Recent returns the changes of figure f for the worse whose new level
// starts within the newest `within` analysed runs of the series: what a CI
// job that just added a run should fail on.
func (s *Series) Recent(f Figure, within int) []Change {
	first := len(s.Runs) // index of the oldest run that counts as recent
	for i, seen := len(s.Runs)-1, 0; i >= 0 && seen < within; i-- {
		if s.Runs[i].Analysed() {
			first, seen = i, seen+1
		}
	}
	var out []Change
	for _, c := range s.Changes {
		if c.Figure == f && c.Worse && c.At >= first {
			out = append(out, c)
		}
	}
	return out
}
