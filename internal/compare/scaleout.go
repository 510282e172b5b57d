package compare

import (
	"fmt"
	"sort"
)

// scaleOutBehind is how far below its offered rate the baseline's
// throughput must be for it to have been limited: a baseline that kept up
// could not complete more however many instances served it.
const scaleOutBehind = 0.9

// scaleOutNotes says, for each group that scraped more targets of a role
// than the baseline (Input.Instances: 2 app instances behind a proxy
// instead of 1) at a comparable load, when its throughput did not rise
// significantly while the baseline was limited: scaling did not raise
// throughput, so what limits it is shared by the instances (case study 3:
// a second app server behind nginx changed nothing, the DB was the limit).
func scaleOutNotes(rep *Report, ins []Input, views []*runView) []string {
	tps, ok := rep.allLine(TPS), rep.allLine(Succeeded)
	if tps == nil {
		return nil
	}
	if ok == nil {
		ok = tps
	}
	base := ins[rep.Groups[0].Runs[0]].Instances
	var out []string
	for g := 1; g < len(rep.Groups); g++ {
		grp := rep.Groups[g]
		// limited on what completed; the figures quoted are what succeeded (trial 2: 41 % of "125 req/s" timed out)
		v, b := ok.Values[g], ok.Values[0]
		if !grp.Comparable || !v.Has || !b.Has || (v.Significant && v.Verdict == "better") || !tps.Values[0].Has || !rep.limited(tps.Values[0].Value) {
			continue
		}
		per := groupsUnit(views, rep.Groups[0], grp).PerSecond()
		for _, role := range roles(ins[grp.Runs[0]].Instances) {
			n, was := ins[grp.Runs[0]].Instances[role], base[role]
			if was < 1 || n <= was {
				continue
			}
			out = append(out, fmt.Sprintf("scaling did not raise throughput: %s scraped %d targets of role=%s where %s scraped %d, at a comparable load, "+
				"and succeeded at %s %s against %s %s (%s): what limits it is shared by the instances (a DB, a lock, a pool behind them), "+
				"not in each one (case study 3); read the findings of either run for what it is",
				grp.Name, n, role, rep.Groups[0].Name, was, num(v.Value), per, num(b.Value), per, changeWords(v)))
		}
	}
	return out
}

// limited reports whether the baseline completed clearly less than it was
// offered (open model), or ran a closed model, where more instances at the
// same VUs would raise throughput if they shortened each request.
func (r *Report) limited(x float64) bool {
	base := r.Groups[0]
	if base.LoadUnit == "VUs" {
		return true
	}
	return base.Load > 0 && x < scaleOutBehind*base.Load
}

// allLine returns the all-endpoints line of a metric, or nil.
func (r *Report) allLine(m Metric) *Line {
	if len(r.Rows) == 0 {
		return nil
	}
	for i := range r.Rows[0].Lines {
		if r.Rows[0].Lines[i].Metric == m {
			return &r.Rows[0].Lines[i]
		}
	}
	return nil
}

// roles lists a run's scraped roles in order.
func roles(n map[string]int) []string {
	var out []string
	for r := range n {
		out = append(out, r)
	}
	sort.Strings(out)
	return out
}

// changeWords says how a throughput change was judged.
func changeWords(v Value) string {
	switch {
	case v.Verdict == "~":
		return "no significant change"
	case v.Significant:
		return "significantly lower"
	}
	return "not tested"
}

// num writes a throughput with three significant figures.
func num(x float64) string { return fmt.Sprintf("%.3g", x) }
