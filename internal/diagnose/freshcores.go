package diagnose

import (
	"sort"

	"github.com/loadlens/loadlens/internal/series"
)

// freshestCores defines the source own(KEY): the cores a process used, read at
// each second by its own counter and by its role's one container
// (cAdvisor), the larger where both read that second. A JVM in back-to-back
// full GCs stops answering its scrapes: run 7's gc case had Actuator's
// last reading (0.53 cores, at 0:11) stand for 0:12–0:22 while cAdvisor read
// the app's container at 0.98–1.0 cores every second, and "other processes
// took its CPU" was said of a core the JVM itself filled. It is the
// process's own counter when no single container shares its role.
func (c *context) freshestCores(p processCore) string {
	cont := c.roleContainer(p.s.Label("role"))
	if cont == nil {
		return p.cores
	}
	src := "own(" + p.s.Key() + ")"
	if _, ok := c.vals[src]; ok {
		return src
	}
	at := map[int]float64{}
	for _, pts := range [][]series.Point{c.values(p.cores), c.values(c.ofSeries(cont))} {
		for _, q := range pts {
			if v, ok := at[q.Sec]; !ok || q.Value > v {
				at[q.Sec] = q.Value
			}
		}
	}
	pts := make([]series.Point, 0, len(at))
	for sec, v := range at {
		pts = append(pts, series.Point{Sec: sec, Value: v})
	}
	sort.Slice(pts, func(i, j int) bool { return pts[i].Sec < pts[j].Sec })
	return c.define(src, pts)
}

// roleContainer returns the one container CPU series of a role, or nil
// when the role is empty or has none or several: several are a pod's
// sidecars or a workload's replicas, none of which is the process alone.
func (c *context) roleContainer(role string) *series.Series {
	if role == "" {
		return nil
	}
	var found *series.Series
	for _, s := range c.set.Find(containerCPU) {
		if s.Label("role") != role {
			continue
		}
		if found != nil {
			return nil
		}
		found = s
	}
	return found
}

// latestAt defines the source held(SRC)@AT: src's latest value, however
// old, at each second at has a point (its first value before it had one).
// A CPU count a process reports with its cores goes unread when its scrape
// stops answering, while its cores are still read from its container.
func (c *context) latestAt(src, at string) string {
	out := "held(" + src + ")@" + at
	if _, ok := c.vals[out]; ok {
		return out
	}
	sp := c.values(src)
	var pts []series.Point
	if len(sp) == 0 {
		return c.define(out, pts)
	}
	j := 0
	for _, p := range c.values(at) {
		for j+1 < len(sp) && sp[j+1].Sec <= p.Sec {
			j++
		}
		pts = append(pts, series.Point{Sec: p.Sec, Value: sp[j].Value})
	}
	return c.define(out, pts)
}
