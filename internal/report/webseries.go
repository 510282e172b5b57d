package report

import (
	"math"
	"sort"
	"strconv"

	"github.com/loadlens/loadlens/internal/diagnose"
	"github.com/loadlens/loadlens/internal/series"
	"github.com/loadlens/loadlens/internal/units"
)

// RoleGenerator is the role label of the series loadlens records about itself.
const RoleGenerator = "generator"

// SeriesMeta says where the pages draw one observed series and how they
// label it: the group (one per scraped target, and one for the load
// generator), the chart within it (one per metric family, e.g. a pool's
// active, idle, pending and max connections) and the legend. A chart's
// legend shows Base and those of Parts that tell its series apart; the
// parts all its series share go into its title.
type SeriesMeta struct {
	ID        int      `json:"id"`              // the series' index in the page's list
	Key       string   `json:"key"`             // name{labels}, as diagnosis evidence names it
	Name      string   `json:"name"`            // the metric name
	Group     string   `json:"group"`           // the target label ("unlabelled" without one)
	Role      string   `json:"role,omitempty"`  // the role label
	Generator bool     `json:"gen,omitempty"`   // the load generator's own series
	Chart     string   `json:"chart"`           // the chart's key within the group
	Title     string   `json:"title"`           // the chart's title
	Rank      int      `json:"rank"`            // the chart's order within the group
	Order     int      `json:"order"`           // the series' order within the chart
	Unit      string   `json:"unit"`            // count, bytes, seconds, ratio or cores
	Base      string   `json:"base,omitempty"`  // the legend label its family gives, e.g. "pending"
	Parts     []string `json:"parts,omitempty"` // its other labels' values (name=value for a metric of its own chart)
	Limit     bool     `json:"limit,omitempty"` // a limit (max connections, capacity), drawn dashed
	Up        bool     `json:"up,omitempty"`    // the target's up series: scrape outcomes, not charted
	// PerSec marks counts in each second of the run (the generator's bytes,
	// an agent's requests): in a last second cut short the page divides
	// them by the share it lasted (Frame.Covered), as it does the requests.
	PerSec bool `json:"ps,omitempty"`
}

// SeriesPoints is some points of one series, as two aligned columns.
type SeriesPoints struct {
	ID     int       `json:"i"`
	Secs   []int     `json:"s"`
	Values []float64 `json:"v"`
}

// ObservedDelta is what a page learns of the observed series at once:
// series seen for the first time, and points added since the last delta.
// report.html gets one with everything; each live frame gets the news.
type ObservedDelta struct {
	New    []SeriesMeta   `json:"n,omitempty"`
	Points []SeriesPoints `json:"p,omitempty"`
}

// Empty reports whether d carries nothing.
func (d *ObservedDelta) Empty() bool { return d == nil || len(d.New) == 0 && len(d.Points) == 0 }

// SeriesDescriber names observed series for the pages; it is made once
// per page and keeps the chart catalogue.
type SeriesDescriber struct{ families familyIndex }

// NewSeriesDescriber returns a describer with the usual chart families, for
// a run whose samples count u (its agents' charts are titled in it).
func NewSeriesDescriber(u units.Unit) *SeriesDescriber {
	return &SeriesDescriber{families: newFamilyIndex(u)}
}

// Describe returns where and how series s, the id-th of its page, is drawn.
func (sd *SeriesDescriber) Describe(id int, s *series.Series) SeriesMeta {
	m := SeriesMeta{ID: id, Key: s.Key(), Name: s.Name, Group: s.Label("target"), Role: s.Label("role")}
	m.Generator = m.Role == RoleGenerator
	if m.Group == "" {
		m.Group = "unlabelled"
	}
	fm, known := sd.families[s.Name]
	if !known {
		own := ownChart(s.Name, s.Kind == series.Rate)
		fm.fam = &own
	}
	f := fm.fam
	m.Chart, m.Title, m.Rank, m.Order, m.Unit = f.chart, f.title, f.rank, fm.order, f.unit
	m.Limit = f.isLimit(s.Name)
	m.PerSec = f.perSec
	m.Up = s.Name == "up" && !m.Generator
	if known {
		m.Base = f.members[fm.order].label
	}
	for _, l := range s.Labels {
		switch {
		case l.Name == "role" || l.Name == "target":
		case known:
			m.Parts = append(m.Parts, l.Value)
		default:
			m.Parts = append(m.Parts, l.Name+"="+l.Value)
		}
	}
	return m
}

// maxPagePoints bounds the points report.html embeds for all series
// together, and maxSeriesPoints for one: a 10-minute run scraped every
// second stays whole, longer runs and many series are downsampled.
const (
	maxPagePoints   = 60_000
	maxSeriesPoints = 1_200
	minSeriesPoints = 120
)

// ObservedForPage returns every series of set for report.html, in a
// stable order (generator last, then by group, name and labels), each
// downsampled to a share of the page's point budget. u is what the run's
// samples count (NewSeriesDescriber).
func ObservedForPage(set series.Set, u units.Unit) ObservedDelta {
	sorted := append(series.Set(nil), set...)
	sort.SliceStable(sorted, func(i, j int) bool {
		a, b := sorted[i], sorted[j]
		ga, gb := a.Label("role") == RoleGenerator, b.Label("role") == RoleGenerator
		if ga != gb {
			return gb
		}
		if ta, tb := a.Label("target"), b.Label("target"); ta != tb {
			return ta < tb
		}
		return a.Key() < b.Key()
	})
	budget := maxSeriesPoints
	if len(sorted) > 0 {
		budget = min(maxSeriesPoints, max(minSeriesPoints, maxPagePoints/len(sorted)))
	}
	sd := NewSeriesDescriber(u)
	d := ObservedDelta{New: []SeriesMeta{}, Points: []SeriesPoints{}}
	for id, s := range sorted {
		d.New = append(d.New, sd.Describe(id, s))
		d.Points = append(d.Points, NewSeriesPoints(id, Downsample(s.Points, budget)))
	}
	return d
}

// NewSeriesPoints returns pts as the columns of series id, values rounded
// to 6 significant digits to keep the JSON short; NaN and infinities,
// which JSON cannot carry, are left out.
func NewSeriesPoints(id int, pts []series.Point) SeriesPoints {
	sp := SeriesPoints{ID: id, Secs: make([]int, 0, len(pts)), Values: make([]float64, 0, len(pts))}
	for _, p := range pts {
		if math.IsNaN(p.Value) || math.IsInf(p.Value, 0) {
			continue
		}
		sp.Secs = append(sp.Secs, p.Sec)
		sp.Values = append(sp.Values, round6(p.Value))
	}
	return sp
}

func round6(v float64) float64 {
	r, err := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 6, 64), 64)
	if err != nil {
		return v
	}
	return r
}

// Downsample returns at most limit points of pts (in second order): when
// there are more, the run is cut into limit/2 equal spans of seconds and
// each span keeps its lowest and its highest point, in second order, so
// that a spike or a dip of one scrape still shows.
func Downsample(pts []series.Point, limit int) []series.Point {
	if len(pts) <= limit || limit < 2 {
		return pts
	}
	buckets := limit / 2
	first, last := pts[0].Sec, pts[len(pts)-1].Sec
	span := float64(last-first+1) / float64(buckets)
	out := make([]series.Point, 0, limit)
	for i := 0; i < len(pts); {
		b := int(float64(pts[i].Sec-first) / span)
		lo, hi := i, i
		j := i
		for ; j < len(pts) && int(float64(pts[j].Sec-first)/span) == b; j++ {
			if pts[j].Value < pts[lo].Value {
				lo = j
			}
			if pts[j].Value > pts[hi].Value {
				hi = j
			}
		}
		switch {
		case lo == hi:
			out = append(out, pts[lo])
		case lo < hi:
			out = append(out, pts[lo], pts[hi])
		default:
			out = append(out, pts[hi], pts[lo])
		}
		i = j
	}
	return out
}

// GeneratorCPUBySecond returns loadlens's own CPU use by second, in cores,
// from the generator's series: the one place run.db keeps it.
func GeneratorCPUBySecond(set series.Set) map[int]float64 {
	out := map[int]float64{}
	for _, s := range set.Find(diagnose.GeneratorCPU, "role", RoleGenerator) {
		for _, p := range s.Points {
			out[p.Sec] = p.Value
		}
	}
	return out
}
