package report

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/units"
)

// htmlView is everything report.html's template shows. Its strings are
// plain text: the template escapes them.
type htmlView struct {
	Name, Version, Verdict, VerdictClass, StatusNote, Subtitle string
	Cards                                                      []card
	Warnings, Notices                                          []string
	ScrapeNotices                                              []string // scrape failures, shown with the server's charts
	Diagnosis                                                  Diagnosis
	Observed, Generator                                        bool // some target was scraped; the generator observed itself
	Thresholds                                                 []markRow
	Endpoints                                                  []endpointRow
	Total                                                      *endpointRow
	RateNote                                                   string // what the RPS column is over
	CountHead, RateHead                                        string // the endpoint table's count and rate columns: Requests and RPS, Calls and Calls/s
	ActiveNote                                                 string // what the Active column is over, in the run's unit
	NoFailures                                                 string // the errors table's place when none failed: "No request failed.", "No call failed."
	Errors                                                     []errorRow
	Checks                                                     []checkRow
	Sessions, Statuses, Custom                                 []tableRow // session protocols' facts, their statuses, custom metrics; nil when none
	SessionHead, StatusHead, CustomHead                        []string
	Meta                                                       []keyValue
	TestFile, TestSource                                       string
	Traces                                                     *tracesView // nil when the run kept no traces
	AgentHead                                                  []string    // a distributed run's per-agent table; nil otherwise
	Agents                                                     [][]string  // its rows
	AgentNotes                                                 []string    // lost agents and missing seconds
}

type card struct {
	Label, Value, Sub string
	Bad               bool
}

type markRow struct{ Mark, Class, Key, Expr, Observed string }

type cell struct {
	Text string
	Sort float64
}

type endpointRow struct {
	Name  string
	Cells []cell
}

type errorRow struct {
	Kind, Endpoint, First, Last string
	Seconds                     string // First–Last, or the one second when they are one
	Count                       int64
	CountText                   string
	Samples                     []sampleRow // the first few distinct messages, the most counted first
	More                        []sampleRow // the others, folded away
	Others                      string      // "3 others": the failures no message counts; "" when none
}

// shownSamples is how many error messages a row shows unfolded.
const shownSamples = 3

// sampleRow is one distinct error message; Status is set when the message
// does not already start with it.
type sampleRow struct {
	Status, Message, Count string
	First                  string // the first second it was said in
	Short                  string // Message without the reason phrase when the target said more (sample.ShortStatus)
}

type checkRow struct {
	Mark, Class, Name, Endpoint, Rate string
	Passes, Fails                     int64
	PassesText, FailsText             string
}

type keyValue struct{ Key, Value string }

func newHTMLView(in *Input) *htmlView {
	r := in.Run
	v := &htmlView{Name: in.Name, Version: in.Version, Verdict: Verdict(in), StatusNote: statusNote(in.Status),
		TestFile: in.TestFile, TestSource: string(in.TestSource), Diagnosis: NewDiagnosis(in.Findings, in.Healthy)}
	v.Notices, v.ScrapeNotices = splitNotices(in.Notices)
	if len(in.Agents) > 0 {
		rows := agentRows(in.Agents, agentUnitHead(agentHead, in))
		v.AgentHead, v.Agents, v.AgentNotes = rows[0], rows[1:], agentNotes(in.Agents)
	}
	for _, s := range in.Series {
		if s.Label("role") == RoleGenerator {
			v.Generator = true
		} else {
			v.Observed = true
		}
	}
	v.VerdictClass = verdictClass(v.Verdict)
	if why := in.GateNote(); why != "" {
		v.StatusNote = strings.TrimPrefix(v.StatusNote+": ", ": ") + why
	}
	v.Subtitle = fmt.Sprintf("%s · started %s · ran %s", in.Status, in.Start.Format("2006-01-02 15:04:05 MST"), units.Duration(r.Elapsed()))
	if in.Dir != "" {
		v.Subtitle += " · " + in.Dir
	}
	if w := droppedWarning(in); w != "" {
		v.Warnings = append(v.Warnings, w)
	}
	v.Warnings = append(v.Warnings, Accounting(in)...)
	v.Warnings = append(v.Warnings, OutputWarnings(in)...) // what the metrics outputs lost, as the summary says
	v.Cards = headlineCards(in)
	for i, res := range in.Results {
		row := markRow{Mark: "✓", Class: "ok", Key: res.Key, Expr: res.Expr, Observed: Observed(&in.Thresholds[i], res)}
		if !res.Pass {
			row.Mark, row.Class = "✗", "bad"
		}
		if res.Aborted {
			row.Observed += " (stopped the run)"
		}
		v.Thresholds = append(v.Thresholds, row)
	}
	eps, all := endpointTable(r)
	for _, s := range eps {
		v.Endpoints = append(v.Endpoints, newEndpointRow(s))
	}
	if all != nil {
		row := newEndpointRow(*all)
		v.Total = &row
	}
	v.CountHead, v.RateHead = countHeads(runUnit(r))
	v.NoFailures = "No " + runUnit(r).Or().One + " failed."
	v.ActiveNote = "from the endpoint's first to its last second with " + runUnit(r).Or().Many
	v.RateNote = rateNote(r, v.RateHead, v.CountHead, "Active")
	v.Errors = errorRows(r)
	v.Checks = checkRows(r)
	v.Sessions, v.Statuses, v.Custom = sessionRows(r), statusRows(r), customRows(r)
	v.SessionHead, v.StatusHead, v.CustomHead = sessionHead(r), statusHead, customHead
	v.Meta = metaRows(in)
	v.Traces = newTracesView(in)
	return v
}

func headlineCards(in *Input) []card {
	r := in.Run
	tot := r.Total()
	nf := failed(&tot)
	h := tot.Duration
	sent := fmt.Sprintf("%s in %s", runCount(r, tot.Requests), units.Duration(r.Elapsed()))
	if tot.Redirects > 0 {
		sent += " · " + units.CountOf(tot.Redirects, "redirect", "redirects") + " followed"
	}
	cards := []card{
		{Label: "Throughput", Value: rateCell(r), Sub: sent},
		{Label: "p95 " + latencyName(r), Value: latencyText(r, h.Quantile(95)), Sub: fmt.Sprintf("p50 %s · avg %s", latencyText(r, h.Quantile(50)), latencyText(r, h.Mean()))},
		{Label: "p99 " + latencyName(r), Value: latencyText(r, h.Quantile(99)), Sub: "max " + latencyText(r, h.Max())},
		{Label: "Errors", Value: units.Percent(ratio(nf, tot.Requests)), Sub: units.Count(nf) + " failed", Bad: nf > 0},
	}
	var passes, fails int64
	for _, c := range r.Checks {
		passes, fails = passes+c.Passes, fails+c.Fails
	}
	if len(r.Checks) == 0 {
		cards = append(cards, card{Label: "Checks", Value: "-", Sub: "no checks"})
	} else {
		cards = append(cards, card{Label: "Checks", Value: units.Percent(ratio(passes, passes+fails)), Sub: units.Count(passes) + " of " + units.Count(passes+fails) + " passed", Bad: fails > 0})
	}
	var iters, vus int64
	for _, s := range r.Scenarios {
		iters += s.Iterations
		vus += s.VUsMaxAllocated
	}
	_, _, busy := r.VUs() // the seconds' sums' peak, as summary.json's vus.max

	sub := units.CountOf(iters, "iteration", "iterations") + " · " + units.Count(in.Dropped()) + " dropped"
	if busy > 0 && busy < vus {
		sub = "up to " + units.Count(busy) + " busy · " + sub
	}
	return append(cards, card{Label: "Peak VUs", Value: units.Count(vus), Sub: sub, Bad: in.Dropped() > 0})
}

// newEndpointRow lays out s in the columns of report.html's and the
// Markdown summary's endpoint tables.
func newEndpointRow(s endpointStats) endpointRow {
	row := endpointRow{Name: s.Name, Cells: []cell{
		{units.Count(s.Requests), float64(s.Requests)},
		{activeText(s), s.Active.Seconds()},
		{rateText(s), s.Rate},
		{units.Percent(s.errorRate()), nanZero(s.errorRate())},
	}}
	for _, d := range s.latencies() {
		if !s.Latency {
			row.Cells = append(row.Cells, cell{"-", -1})
			continue
		}
		row.Cells = append(row.Cells, cell{units.Duration(d), ms(d)})
	}
	return row
}

// errorRows lists the failures by endpoint and kind, most frequent first.
func errorRows(r *metrics.Run) []errorRow {
	var rows []errorRow
	for i := range r.Endpoints {
		for _, g := range r.Endpoints[i].Errors {
			row := errorRow{Kind: g.Kind.String(), Endpoint: endpointLabel(r, i), Count: g.Count, CountText: units.Count(g.Count),
				First: units.Clock(g.First), Last: units.Clock(g.Last), Seconds: units.Span(g.First, g.Last)}
			if n := g.Others(); n > 0 && len(g.Samples) > 1 {
				row.Others = units.CountOf(n, "other", "others")
			}
			for _, s := range bySaid(g) {
				sr := sampleRow{Message: s.Message, Count: units.Count(s.Count), First: units.Clock(s.First), Short: sample.ShortStatus(s.Status, s.Message)}
				if st := strconv.Itoa(s.Status); s.Status != 0 && !strings.HasPrefix(s.Message, st) {
					sr.Status = st
				}
				if len(row.Samples) < shownSamples {
					row.Samples = append(row.Samples, sr)
				} else {
					row.More = append(row.More, sr)
				}
			}
			rows = append(rows, row)
		}
	}
	sort.SliceStable(rows, func(a, b int) bool { return rows[a].Count > rows[b].Count })
	return rows
}

func checkRows(r *metrics.Run) []checkRow {
	var rows []checkRow
	for i, c := range r.Checks {
		info := r.Layout.Checks[i]
		row := checkRow{Name: info.Name, Rate: checkRate(c), Passes: c.Passes, Fails: c.Fails,
			PassesText: units.Count(c.Passes), FailsText: units.Count(c.Fails)}
		row.Mark, row.Class = checkMark(c)
		if ep := int(info.Endpoint); ep >= 0 && ep < len(r.Layout.Endpoints) {
			row.Endpoint = endpointLabel(r, ep)
		}
		rows = append(rows, row)
	}
	return rows
}

func metaRows(in *Input) []keyValue {
	rows := []keyValue{
		{"Status", in.Status},
		{"Verdict", Verdict(in)},
		{"Started", in.Start.Format("2006-01-02 15:04:05.000 MST")},
		{"Ended", in.End.Format("2006-01-02 15:04:05.000 MST")},
		{"Duration", units.Duration(in.Run.Elapsed())},
		{"loadlens", in.Version},
		{"Host", in.Host},
		{"CPUs", strconv.Itoa(in.CPUs)},
	}
	if len(in.Args) > 0 {
		rows = append(rows, keyValue{"Command", strings.Join(in.Args, " ")})
	}
	if in.Dir != "" {
		rows = append(rows, keyValue{"Run directory", in.Dir})
	}
	if in.TestFile != "" {
		rows = append(rows, keyValue{"Test file", in.TestFile})
	}
	return rows
}

// splitNotices separates the notices about failed scrapes, which the
// report shows beside the server's charts, from the others. Both callers
// that record them (a live run and a rebuild from run.db) start them with
// "scraping "; a notice worded otherwise still shows, at the top.
func splitNotices(all []string) (other, scrape []string) {
	for _, n := range all {
		if strings.HasPrefix(n, "scraping ") {
			scrape = append(scrape, n)
		} else {
			other = append(other, n)
		}
	}
	return other, scrape
}
