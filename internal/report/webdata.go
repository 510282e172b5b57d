package report

import (
	"math"
	"time"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/threshold"
	"github.com/loadlens/loadlens/internal/units"
)

// Frame is one second of a run as the web pages draw it: the live
// dashboard receives one a second, report.html embeds them all. Durations
// are milliseconds; the short JSON names keep a long run's report small.
type Frame struct {
	Sec      int     `json:"t"`   // seconds since the start
	Requests int64   `json:"rq"`  // completed in this second
	Failed   int64   `json:"er"`  // failed in this second
	P50      float64 `json:"p50"` // request duration, all endpoints merged
	P90      float64 `json:"p90"`
	P95      float64 `json:"p95"`
	P99      float64 `json:"p99"`
	Max      float64 `json:"max"`
	// Latencies is how many durations the percentiles above are of: 0 (no
	// latency, which a chart leaves blank, not 0) in a second whose samples
	// were sessions' ends alone beside requests; a run of sessions alone
	// fills them with its sessions' lengths (PageMeta.Latency).
	Latencies  int64            `json:"n"`
	VUs        int64            `json:"vu"`            // active VUs
	VUsMax     int64            `json:"vx"`            // allocated VUs
	Dropped    int64            `json:"dr"`            // iterations dropped in this second
	LagP99     float64          `json:"lag"`           // scheduler lag
	Received   int64            `json:"rx"`            // bytes received in this second
	Sent       int64            `json:"tx"`            // bytes sent in this second
	CPU        *float64         `json:"cpu,omitempty"` // the generator's CPU, % of all the machine's CPUs; nil: unknown
	Endpoints  [][5]float64     `json:"e"`             // per endpoint: requests, failed, p50, p95, p99
	Thresholds []ThresholdState `json:"th,omitempty"`  // live values, aligned with PageMeta.Thresholds
	Observed   *ObservedDelta   `json:"o,omitempty"`   // series first seen and points added since the last frame
	// Covered is the share of the second the run lasted when that is less
	// than all of it (a last second cut short; 0: all): the counts above
	// are of that share, and the charts' rates divide them by it.
	Covered float64 `json:"w,omitempty"`
}

// EndpointTable is the live dashboard's per-endpoint table: a row per
// endpoint, in PageMeta.Endpoints' order, and all of them together when
// there are several.
type EndpointTable struct {
	Rows []EndpointRow `json:"rows"`
	All  *EndpointRow  `json:"all,omitempty"`
	Note string        `json:"note"` // what RPS is over
	// Sessions are the session endpoints' facts (SSE, WebSocket, gRPC);
	// left out for a run without session steps.
	Sessions []SessionRow `json:"sessions,omitempty"`
	// SessionsHead names what the session rows count: Calls, Sessions.
	SessionsHead string `json:"sessions_head,omitempty"`
}

// EndpointRow is one endpoint's figures over the run so far, or all of
// it; durations are milliseconds, and mean nothing without requests.
type EndpointRow struct {
	Requests int64   `json:"rq"`
	Failed   int64   `json:"er"`
	ActiveS  float64 `json:"act"` // seconds from its first to its last second with requests
	Rate     float64 `json:"rps"` // Requests / ActiveS, ActiveS at least a second (metrics.Run.Rate); 0 when ActiveS is
	Min      float64 `json:"min"`
	Avg      float64 `json:"avg"`
	P50      float64 `json:"p50"`
	P90      float64 `json:"p90"`
	P95      float64 `json:"p95"`
	P99      float64 `json:"p99"`
	Max      float64 `json:"max"`
}

// RunFigures are the whole run's headline figures, which the dashboard's
// cards show once the run has ended; durations are milliseconds.
type RunFigures struct {
	ElapsedS float64  `json:"elapsed_s"`
	Requests int64    `json:"rq"`
	Rate     float64  `json:"rps"` // the headline's rate: the all endpoints row's (runRate); 0 when none
	Failed   int64    `json:"er"`
	P50      float64  `json:"p50"`
	P95      float64  `json:"p95"`
	P99      float64  `json:"p99"`
	VUsPeak  int64    `json:"vu"` // the most VUs active in one second
	VUsMax   int64    `json:"vx"` // the most allocated
	Dropped  int64    `json:"dr"`
	CPUAvg   *float64 `json:"cpu_avg,omitempty"`  // the generator's CPU, % of all the machine's CPUs; nil: unknown
	CPUPeak  *float64 `json:"cpu_peak,omitempty"` // its busiest second
}

// ThresholdState is a threshold's value and status at some point of a run.
type ThresholdState struct {
	Text    string `json:"s"` // the value as written in the summary, e.g. p(95)=12.3ms
	HasData bool   `json:"d"`
	Pass    bool   `json:"p"`
	Aborted bool   `json:"a,omitempty"` // it stopped the run
}

// PageMeta is what a page needs to label a run's frames.
type PageMeta struct {
	Name       string          `json:"name"`
	Version    string          `json:"version"`
	Host       string          `json:"host"`
	CPUs       int             `json:"cpus"`
	Start      string          `json:"start"`     // RFC 3339
	PlannedSec float64         `json:"planned_s"` // the planned length; 0 when unknown
	Scenarios  []string        `json:"scenarios"`
	Endpoints  []EndpointMeta  `json:"endpoints"`
	Thresholds []ThresholdMeta `json:"thresholds"`
	// Unit is what the run's samples count (requests, gRPC calls,
	// sessions), so that the pages' cards, charts and tables name it.
	Unit PageUnit `json:"unit"`
	// Latency is what the frames' percentiles are of (metrics.Run.LatencyOf):
	// "requests", "calls", or "sessions" for a run of sessions alone, whose
	// charts draw how long its sessions lasted.
	Latency string `json:"latency"`
}

// PageUnit names a run's unit for the pages' scripts: the endpoint table's
// count and rate columns (countHeads) and the unit's words.
type PageUnit struct {
	units.Unit
	Count string `json:"count"` // "Requests", "Calls"
	Rate  string `json:"rate"`  // "RPS", "Calls/s"
}

// newPageUnit is r's unit for the pages.
func newPageUnit(r *metrics.Run) PageUnit {
	u := runUnit(r)
	count, rate := countHeads(u)
	return PageUnit{Unit: u, Count: count, Rate: rate}
}

// EndpointMeta names one endpoint.
type EndpointMeta struct {
	Name     string `json:"name"`
	Scenario int32  `json:"scenario"`
}

// ThresholdMeta names one threshold.
type ThresholdMeta struct {
	Key  string `json:"key"`
	Expr string `json:"expr"`
}

// Final is how a run ended, as the live dashboard shows it last.
type Final struct {
	Status      string           `json:"status"`
	Verdict     string           `json:"verdict"`
	Thresholds  []ThresholdState `json:"thresholds"`
	Report      string           `json:"report"`                 // where report.html was written
	ReportError string           `json:"report_error,omitempty"` // why report.html could not be written
	Diagnosis   Diagnosis        `json:"diagnosis"`
	Notices     []string         `json:"notices"`     // what the run said, scrape failures included
	Warnings    []string         `json:"warnings"`    // what a reader must know about the figures (see Accounting)
	Observed    *ObservedDelta   `json:"o,omitempty"` // points that came after the last frame
	Run         RunFigures       `json:"run"`         // the whole run, for the headline cards
	Endpoints   EndpointTable    `json:"endpoints"`   // the whole run, for the endpoint table
}

// Spectrum is the percentile spectrum of one latency histogram.
type Spectrum struct {
	Label       string    `json:"label"`
	Count       int64     `json:"n"`
	Percentiles []float64 `json:"p"` // 0..100
	Values      []float64 `json:"v"` // milliseconds
}

// NewPageMeta describes in's run for a page; planned is the planned length.
func NewPageMeta(in *Input, planned time.Duration) PageMeta {
	l := in.Run.Layout
	m := PageMeta{Name: in.Name, Version: in.Version, Host: in.Host, CPUs: in.CPUs, Start: in.Start.Format(time.RFC3339),
		PlannedSec: planned.Seconds(), Scenarios: []string{}, Endpoints: []EndpointMeta{}, Thresholds: []ThresholdMeta{}, Unit: newPageUnit(in.Run), Latency: frameLatency(in.Run)}
	for _, s := range l.Scenarios {
		m.Scenarios = append(m.Scenarios, s.Name)
	}
	for _, e := range l.Endpoints {
		m.Endpoints = append(m.Endpoints, EndpointMeta{Name: e.Name, Scenario: e.Scenario})
	}
	for _, t := range in.Thresholds {
		m.Thresholds = append(m.Thresholds, ThresholdMeta{Key: t.Key, Expr: t.Expr})
	}
	return m
}

// frameLatency is what r's frames' percentiles are of (PageMeta.Latency):
// its latency's, or "sessions" when it has none but sessions.
func frameLatency(r *metrics.Run) string {
	if of := r.LatencyOf(); of != "" || len(r.Layout.Endpoints) == 0 {
		return of
	}
	return "sessions"
}

// NewFrame returns the frame of r.Series[i]; cpu is the generator's CPU in
// cores busy, negative when unknown, and cpus the machine's CPU count.
func NewFrame(r *metrics.Run, i int, cpu float64, cpus int) Frame {
	s := &r.Series[i]
	f := Frame{Sec: s.Sec, Requests: s.Requests, Failed: s.Failed, P50: ms(s.P50), P90: ms(s.P90), P95: ms(s.P95),
		P99: ms(s.P99), Max: ms(s.Max), VUs: s.VUs, VUsMax: s.VUsMax, Dropped: s.Dropped, LagP99: ms(s.LagP99),
		Received: s.Received, Sent: s.Sent,
		Latencies: s.Latencies, Endpoints: make([][5]float64, len(s.PerEndpoint))}
	if frameLatency(r) == "sessions" {
		l := &s.Sessions
		f.P50, f.P90, f.P95, f.P99, f.Max, f.Latencies = ms(l.P50), ms(l.P90), ms(l.P95), ms(l.P99), ms(l.Max), l.Count
	}
	if cpu >= 0 && cpus > 0 {
		pct := math.Round(1000*cpu/float64(cpus)) / 10
		f.CPU = &pct
	}
	if c := r.Covered(i); c < 1 {
		f.Covered = max(math.Round(c*1000)/1000, 0.001)
	}
	for k, e := range s.PerEndpoint {
		f.Endpoints[k] = [5]float64{float64(e.Requests), float64(e.Failed), ms(e.P50), ms(e.P95), ms(e.P99)}
	}
	return f
}

// NewEndpointTable returns the figures of r's endpoints over r so far: the
// live dashboard's table, sent apart from the frames because only the
// latest one matters.
func NewEndpointTable(r *metrics.Run) EndpointTable {
	eps, all := endpointTable(r)
	count, rate := countHeads(runUnit(r))
	t := EndpointTable{Rows: make([]EndpointRow, len(eps)), Note: rateNote(r, rate, count, "Active"), Sessions: NewSessionRows(r)}
	if len(t.Sessions) > 0 {
		t.SessionsHead = sessionsCounted(r)
	}
	for i, s := range eps {
		t.Rows[i] = newEndpointRowJSON(s)
	}
	if all != nil {
		row := newEndpointRowJSON(*all)
		t.All = &row
	}
	return t
}

func newEndpointRowJSON(s endpointStats) EndpointRow {
	return EndpointRow{Requests: s.Requests, Failed: s.Failed, ActiveS: s.Active.Seconds(), Rate: s.Rate,
		Min: ms(s.Min), Avg: ms(s.Avg), P50: ms(s.P50), P90: ms(s.P90), P95: ms(s.P95), P99: ms(s.P99), Max: ms(s.Max)}
}

// NewRunFigures returns the whole run's headline figures.
func NewRunFigures(in *Input) RunFigures {
	r := in.Run
	tot := r.Total()
	el := r.Elapsed()
	f := RunFigures{ElapsedS: el.Seconds(), Requests: tot.Requests, Failed: failed(&tot), Dropped: in.Dropped(), Rate: runRate(r)}
	if h := tot.Duration; h != nil && h.Count() > 0 {
		f.P50, f.P95, f.P99 = ms(h.Quantile(50)), ms(h.Quantile(95)), ms(h.Quantile(99))
	}
	for _, s := range r.Series {
		f.VUsPeak = max(f.VUsPeak, s.VUs)
	}
	for _, s := range r.Scenarios {
		f.VUsMax += s.VUsMaxAllocated
	}
	// A partial last second's CPU is a small sample that can read far off.
	whole := int(el / time.Second)
	if el%time.Second == 0 {
		whole = math.MaxInt
	}
	var sum, peak float64
	n := 0
	for sec, c := range in.GeneratorCPU {
		if sec < whole {
			sum, peak, n = sum+c, max(peak, c), n+1
		}
	}
	if in.CPUs > 0 && n > 0 {
		avg := math.Round(1000*sum/float64(n)/float64(in.CPUs)) / 10
		peak = math.Round(1000*peak/float64(in.CPUs)) / 10
		f.CPUAvg, f.CPUPeak = &avg, &peak
	}
	return f
}

// Frames returns every second of in's run as frames.
func Frames(in *Input) []Frame {
	out := make([]Frame, len(in.Run.Series))
	for i, s := range in.Run.Series {
		cpu, ok := in.GeneratorCPU[s.Sec]
		if !ok {
			cpu = -1
		}
		out[i] = NewFrame(in.Run, i, cpu, in.CPUs)
	}
	return out
}

// ThresholdStates returns the states of defs judged as results says.
func ThresholdStates(defs []threshold.Threshold, results []threshold.Result) []ThresholdState {
	out := make([]ThresholdState, len(results))
	for i, r := range results {
		out[i] = ThresholdState{Text: Observed(&defs[i], r), HasData: r.HasData, Pass: r.Pass, Aborted: r.Aborted}
	}
	return out
}

// NewFinal returns how in's run ended; reportPath is where report.html went.
func NewFinal(in *Input, reportPath string) Final {
	notices := append([]string{}, in.Notices...)
	return Final{Status: in.Status, Verdict: Verdict(in), Thresholds: ThresholdStates(in.Thresholds, in.Results), Report: reportPath,
		Diagnosis: NewDiagnosis(in.Findings, in.Healthy), Notices: notices, Warnings: append(Accounting(in), OutputWarnings(in)...),
		Run: NewRunFigures(in), Endpoints: NewEndpointTable(in.Run)}
}

// Spectra returns the latency spectrum of all endpoints merged, then of
// each endpoint that has requests.
func Spectra(in *Input) []Spectrum {
	tot := in.Run.Total()
	out := []Spectrum{spectrum("all endpoints", tot.Duration)}
	if len(in.Run.Endpoints) < 2 {
		return out
	}
	for i := range in.Run.Endpoints {
		if h := in.Run.Endpoints[i].Duration; h.Count() > 0 {
			out = append(out, spectrum(endpointLabel(in.Run, i), h))
		}
	}
	return out
}

func spectrum(label string, h *metrics.Hist) Spectrum {
	s := Spectrum{Label: label, Count: h.Count(), Percentiles: []float64{}, Values: []float64{}}
	for _, p := range h.Percentiles() {
		s.Percentiles = append(s.Percentiles, math.Round(p.Percentile*1e6)/1e6)
		s.Values = append(s.Values, ms(p.Value))
	}
	return s
}
