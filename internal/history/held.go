package history

import "math"

// held reports whether each side's level is held by at least MinRuns of
// its runs, once blips are taken for their neighbours' level (see levels):
// two slowed runs among the last three or four move a short side's mean
// and median as far as a step would, and are still no level.
func (m Method) held(l, r []float64) bool {
	nl, nr := 0, 0
	for i, late := range m.levels(l, r) {
		if i < len(l) && !late {
			nl++
		} else if i >= len(l) && late {
			nr++
		}
	}
	return nl >= m.MinRuns && nr >= m.MinRuns
}

// edge returns where the level of ys changed, near E-Divisive's split
// tau: past the runs after tau that hold the earlier level once blips are
// their neighbours' (a blip then runs back at the old level is not where
// the level changed), or back to the first of the runs before tau that
// hold the later one.
func (m Method) edge(ys []float64, tau int) int {
	late := m.levels(ys[:tau], ys[tau:])
	e := tau
	for e < len(late) && !late[e] {
		e++
	}
	if e > tau {
		return e
	}
	for e > 0 && late[e-1] {
		e--
	}
	return e
}

// levels returns, for each run of l then r, whether it holds r's level.
// A run holds its side's level unless it is against it: nearer the other
// side's level and no outlier of the other side (it may well be one of its
// runs). A run far from both levels is an outlier of either: a run slowed
// after a 30 % drop lies beyond the old level, and the drop is still a
// level. Then a blip (fewer than MinRuns runs in a row holding one level,
// between runs of the other) is taken for the other level, the shortest
// first and, among as short ones, the oldest: a neighbour's one slowed run
// before a step, or one quick run after it, is no edge of a level.
func (m Method) levels(l, r []float64) []bool {
	late := make([]bool, 0, len(l)+len(r))
	lm, _ := meanVar(m.trim(l))
	rm, _ := meanVar(m.trim(r))
	lmed, llim := m.spread(l)
	rmed, rlim := m.spread(r)
	for _, x := range l { // against l: nearer r's level and no outlier of r
		late = append(late, math.Abs(x-rm) < math.Abs(x-lm) && math.Abs(x-rmed) <= rlim)
	}
	for _, x := range r {
		late = append(late, !(math.Abs(x-lm) < math.Abs(x-rm) && math.Abs(x-lmed) <= llim))
	}
	for range late { // each pass joins a blip to its neighbours: at most len(late) passes
		s, e := m.blip(late)
		if s < 0 {
			break
		}
		for i := s; i < e; i++ {
			late[i] = !late[i]
		}
	}
	return late
}

// blip returns the shortest (then oldest) stretch [s, e) of runs holding
// one level, fewer than MinRuns and between runs of the other; −1, −1 when
// none.
func (m Method) blip(late []bool) (s, e int) {
	s, e = -1, -1
	for i := 0; i < len(late); {
		j := i
		for j < len(late) && late[j] == late[i] {
			j++
		}
		if i > 0 && j < len(late) && j-i < m.MinRuns && (s < 0 || j-i < e-s) {
			s, e = i, j
		}
		i = j
	}
	return s, e
}
