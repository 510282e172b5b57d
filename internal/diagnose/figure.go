package diagnose

import (
	"math"
	"strconv"

	"github.com/loadlens/loadlens/internal/units"
)

// Figure is one number a finding states, with what it is and how it was
// computed from the run, so that anyone with run.db can compute it again
// (docs/findings.md lists the sources and statistics).
type Figure struct {
	Value  float64 `json:"value"`
	Unit   Unit    `json:"unit"`
	What   string  `json:"what"`   // what the number is, e.g. "connections in use"
	Source string  `json:"source"` // the per-second quantity it comes from: a client metric (http_reqs, vus.avg, …) or a series key
	Stat   Stat    `json:"stat"`   // how Value was computed from Source over the seconds From..To
	Q      float64 `json:"q,omitempty"`
	From   int     `json:"from"`         // the first second of the run it covers
	To     int     `json:"to"`           // the last second it covers (inclusive)
	Of     []int   `json:"of,omitempty"` // derived figures: the figures (indexes into Figures) it is computed from
	// Per is what a throughput (UnitReqPerSec) counts when not requests:
	// "calls" of gRPC, "sessions" of WebSocket and SSE; it reads "40 calls/s".
	Per string `json:"per,omitempty"`
}

// Unit says how a figure reads.
type Unit uint8

// The units of figures.
const (
	UnitCount     Unit = iota // a whole count: "3,700"
	UnitNumber                // a quantity at the precision its size deserves: "1.2", "537"
	UnitReqPerSec             // a throughput: "3,700 req/s"
	UnitDuration              // seconds, shown as "12.3 ms"
	UnitFraction              // a share, shown as "92 %"
	UnitCores                 // CPU cores: "1.9 cores"
	UnitSecond                // a second of the run: "12s"
	UnitRatio                 // a multiple: "2.0×"
	UnitChange                // a relative change: "+3 %"
	UnitPerMinute             // a duration trend in seconds per second, shown per minute: "+30 ms/min"
	UnitRate                  // a share of requests or checks that failed, shown as the summary's "0.13%"
	numUnits
)

var unitNames = [numUnits]string{"count", "number", "req/s", "s", "fraction", "cores", "second", "ratio", "change", "s/s", "rate"}

// String returns the unit's name as summary.json writes it.
func (u Unit) String() string {
	if u < numUnits {
		return unitNames[u]
	}
	return "unknown"
}

// MarshalText writes the unit by name.
func (u Unit) MarshalText() ([]byte, error) { return []byte(u.String()), nil }

// UnmarshalText reads a unit by name.
func (u *Unit) UnmarshalText(b []byte) error {
	for i, n := range unitNames {
		if n == string(b) {
			*u = Unit(i)
			return nil
		}
	}
	return strconv.ErrSyntax
}

// Stat says how a figure was computed from its source over its seconds.
// A source has a value at some seconds (a client metric at every second it
// applies to, a series at its scrapes); the statistics range over those.
type Stat uint8

// The statistics.
const (
	StatValue    Stat = iota // the source's value at From (= To)
	StatSum                  // the sum of its values
	StatMean                 // the sum over the number of seconds with a value
	StatMedian               // the median of its values
	StatMax                  // the highest value
	StatMin                  // the lowest value
	StatCount                // the number of seconds with a value (scrapes, seconds with requests)
	StatQuantile             // the Q-th percentile of the source's latencies merged over the seconds
	StatOnset                // the second the finding's condition first held (Value = From)
	StatSecond               // a second the finding names (Value = From = To)
	StatSpan                 // the length of From..To in seconds, To − From + 1
	StatSlope                // the Theil–Sen slope of the values against their seconds, per second
	StatTau                  // Kendall's tau of the values against their seconds; with two sources "A vs B", of A against B
	StatRatio                // Of[0] / Of[1]
	StatProduct              // Of[0] × Of[1]
	StatChange               // Of[0] / Of[1] − 1
	StatDiff                 // Of[0] − Of[1]
	StatRank                 // the percentile Of[0] is taken at, as a share: Q / 100 of that figure
	StatLimit                // a threshold of the rule, not a measurement
	numStats
)

var statNames = [numStats]string{"value", "sum", "mean", "median", "max", "min", "count", "quantile", "onset",
	"second", "span", "slope", "tau", "ratio", "product", "change", "diff", "rank", "limit"}

// String returns the statistic's name as summary.json writes it.
func (s Stat) String() string {
	if s < numStats {
		return statNames[s]
	}
	return "unknown"
}

// MarshalText writes the statistic by name.
func (s Stat) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads a statistic by name.
func (s *Stat) UnmarshalText(b []byte) error {
	for i, n := range statNames {
		if n == string(b) {
			*s = Stat(i)
			return nil
		}
	}
	return strconv.ErrSyntax
}

// Derived reports whether the statistic is computed from other figures.
func (s Stat) Derived() bool {
	switch s {
	case StatRatio, StatProduct, StatChange, StatDiff, StatRank:
		return true
	}
	return false
}

// Segment is one piece of a line a finding states: words, a name taken
// verbatim from the run (an endpoint, a series, a check), or a figure.
// Numbers appear only as figures.
type Segment struct {
	Text   string `json:"text,omitempty"`
	Name   string `json:"name,omitempty"`
	Figure int    `json:"figure"` // index into the finding's Figures; -1 for words and names
}

// Join writes a line people read from its segments, each figure written
// by text: a renderer's formatting of a value in its unit (report writes
// them with internal/units).
func Join(parts []Segment, figs []Figure, text func(Figure) string) string {
	var b []byte
	for _, p := range parts {
		switch {
		case p.Figure >= 0 && p.Figure < len(figs):
			b = append(b, text(figs[p.Figure])...)
		case p.Name != "":
			b = append(b, p.Name...)
		default:
			b = append(b, p.Text...)
		}
	}
	return string(b)
}

// Words makes a line of plain words, for a finding written by hand.
func Words(text string) []Segment { return []Segment{{Text: text, Figure: -1}} }

// rawValue writes a figure's value as it is, for ordering findings
// without formatting them.
func rawValue(f Figure) string { return strconv.FormatFloat(f.Value, 'g', -1, 64) + f.Unit.String() }

// ref is a figure of the finding being built, by index.
type ref int

// name is text taken verbatim from the run, which may hold digits.
type name string

// builder assembles a finding: its figures first, then the lines that
// state them.
type builder struct{ f Finding }

func newBuilder(kind string, sev Severity) *builder {
	return &builder{f: Finding{Kind: kind, Severity: sev, Remedies: remediesFor(kind)}}
}

// add keeps a figure and returns its reference.
func (b *builder) add(f Figure) ref {
	b.f.Figures = append(b.f.Figures, f)
	return ref(len(b.f.Figures) - 1)
}

// fig returns a kept figure.
func (b *builder) fig(r ref) Figure { return b.f.Figures[r] }

// noun is one or many as the count figure r is 1 or not: "1 of 1 request".
func (b *builder) noun(r ref, one, many string) string {
	return units.Plural(int64(math.Round(b.fig(r).Value)), one, many)
}

// derive keeps a figure computed from two others.
func (b *builder) derive(st Stat, u Unit, what string, x, y ref) ref {
	a, c := b.f.Figures[x], b.f.Figures[y]
	var v float64
	switch st {
	case StatRatio:
		v = safeDiv(a.Value, c.Value)
	case StatProduct:
		v = a.Value * c.Value
	case StatChange:
		v = safeDiv(a.Value, c.Value) - 1
	case StatDiff:
		v = a.Value - c.Value
	}
	return b.add(Figure{Value: v, Unit: u, What: what, Source: a.Source, Stat: st, From: min(a.From, c.From), To: max(a.To, c.To), Of: []int{int(x), int(y)}})
}

// second keeps a second of the run the finding names.
func (b *builder) second(sec int, st Stat, what string) ref {
	return b.add(Figure{Value: float64(sec), Unit: UnitSecond, What: what, Source: "time", Stat: st, From: sec, To: sec})
}

// line turns words (string), names (name) and figures (ref) into segments.
func line(parts ...any) []Segment {
	out := make([]Segment, 0, len(parts))
	for _, p := range parts {
		switch v := p.(type) {
		case string:
			out = append(out, Segment{Text: v, Figure: -1})
		case name:
			out = append(out, Segment{Name: string(v), Figure: -1})
		case ref:
			out = append(out, Segment{Figure: int(v)})
		case []Segment:
			out = append(out, v...)
		default:
			panic("diagnose: a line part must be a string, a name, a ref or segments")
		}
	}
	return out
}

// title sets the finding's title.
func (b *builder) title(parts ...any) { b.f.Parts = line(parts...) }

// evidence adds a line of evidence whose main figure is main.
func (b *builder) evidence(main ref, parts ...any) {
	b.f.Evidence = append(b.f.Evidence, Evidence{Figure: int(main), Parts: line(parts...)})
}

// done sets the seconds the finding covers and what each line of
// evidence shows of its main figure.
func (b *builder) done(from, to int) Finding {
	f := b.f
	f.From, f.To = from, to
	for i := range f.Evidence {
		e := &f.Evidence[i]
		main := f.Figures[e.Figure]
		e.Source, e.Sec, e.Value = main.Source, main.To, main.Value
	}
	return f
}

func safeDiv(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}
