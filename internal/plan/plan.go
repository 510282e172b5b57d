// Package plan turns a test file or a URL with flags into a validated,
// immutable Plan, and holds the schedule maths the executors follow.
package plan

import (
	"regexp"
	"time"

	"github.com/loadlens/loadlens/internal/jsonpath"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/threshold"
	"github.com/loadlens/loadlens/internal/tmpl"
	"github.com/loadlens/loadlens/internal/yamldoc"
)

// Plan is a validated test, ready for the engine. It is never modified
// after Parse or FromURL returns it.
type Plan struct {
	Name     string        // the test's name; names the run directory
	File     string        // the test file's path; empty in URL mode
	Source   []byte        // the test file's text (or a YAML rendering of the URL flags)
	BaseURL  string        // prefix for relative step paths
	Headers  []Header      // default headers of every request
	Timeout  time.Duration // default request timeout
	Insecure bool          // skip TLS certificate verification
	// AllowHosts are the hosts (host or host:port) a redirect may lead to
	// besides the request's own: every host the test names, and allow_hosts.
	AllowHosts []string
	// Origins are the scheme://host[:port] of the URLs the test's requests
	// name (base_url, absolute step URLs, gRPC targets), each once: a
	// loopback one's process is watched for its cgroup's CPU quota.
	Origins    []string
	Scenarios  []*Scenario           // run at the same time, each with its own load model
	Setup      *Hook                 // run once before the scenarios; nil when none
	Teardown   *Hook                 // run once after them; nil when none
	Thresholds []threshold.Threshold // pass/fail criteria on the run's metrics
	Observe    Observe               // the target's Prometheus endpoints to scrape during the run
	Tracing    Tracing               // the W3C trace context requests carry
	Outputs    []Output              // where to send the per-second metrics while the run lasts
	Layout     sample.Layout         // ids of scenarios, endpoints and checks

	thresholdsAt yamldoc.Pos // where the thresholds key is written; zero in URL mode
}

// ThresholdsError returns an error about the plan's thresholds saying msg:
// at the test file's thresholds key, or naming --threshold in URL mode.
func (p *Plan) ThresholdsError(msg string) *yamldoc.Error {
	if p.File == "" || p.thresholdsAt.Line == 0 {
		return &yamldoc.Error{Field: "--threshold", Msg: msg}
	}
	return &yamldoc.Error{File: p.File, Line: p.thresholdsAt.Line, Column: p.thresholdsAt.Col, Field: "thresholds", Msg: msg}
}

// Model names a load model.
type Model uint8

// The load models a scenario can use.
const (
	ArrivalRate Model = iota // open model: iterations start at a scheduled rate
	VUs                      // closed model: a number of VUs loop over the flow
	Iterations               // a fixed number of iterations shared by some VUs
)

// String returns the model's name as written in test files.
func (m Model) String() string {
	switch m {
	case ArrivalRate:
		return "arrival-rate"
	case VUs:
		return "vus"
	default:
		return "iterations"
	}
}

// Scenario is one named workload: a load model and the flow each iteration runs.
type Scenario struct {
	ID           int32         // index in Plan.Scenarios and Layout.Scenarios
	Name         string        // unique within the plan
	Load         Load          // how iterations are started
	Flow         []Step        // what one iteration does, in order
	Data         *Data         // CSV rows handed to iterations; nil when none
	Vars         []string      // names of the variable slots of a VU (data columns first, then vu_vars, then the variables steps set)
	VUVars       int           // how many of Vars, after the data columns, are vu_vars: kept across a VU's iterations
	VUSets       []Set         // the vu_vars' values, set once when a VU starts
	SetupAt      int           // where in Vars the setup's variables start (len(Plan.Setup.Vars) of them, kept like vu_vars)
	StartTime    time.Duration // delay from the run's start before the scenario begins
	GracefulStop time.Duration // how long in-flight iterations may finish after the scenario's end
	// HTTP2 lets https requests use HTTP/2 (the lean HTTP/2 client) when
	// the server offers it; otherwise they use HTTP/1.1 (the lean client).
	HTTP2 bool
}

// Hook is a setup: or teardown: flow, run once per run by one VU whose
// requests are not measured: a failed request or check stops the run.
type Hook struct {
	Flow []Step
	Vars []string // its variable slots; a teardown's start with the setup's, which it reads
	// Timeout bounds the whole flow (setup_timeout, teardown_timeout: k6's
	// setupTimeout and teardownTimeout): a loop in it cannot hold the run.
	Timeout time.Duration
}

// Load is a scenario's load model. Only the fields of its Model are set.
type Load struct {
	Model Model

	// ArrivalRate: iterations per second, ramped linearly between stages.
	StartRate       float64 // rate at the start of the first stage
	PreAllocatedVUs int     // VUs created before the start
	MaxVUs          int     // ceiling; an iteration with no free VU below it is dropped
	// ArrivalSlack lets arrivals due within it of one the scheduler woke for
	// start with that one, early, rather than each with a wake-up of its own.
	ArrivalSlack time.Duration

	// VUs: targets are VU counts, ramped linearly between stages.
	StartVUs         int
	GracefulRampDown time.Duration // how long a VU removed by a ramp-down may finish its iteration

	// ArrivalRate and VUs: the stages; Target is a rate per second or a VU count.
	Stages []Stage

	// Iterations: Count iterations shared by VUCount VUs, within MaxDuration.
	VUCount     int
	Count       int64
	MaxDuration time.Duration
}

// Stage ramps linearly from the previous target to Target over Duration.
type Stage struct {
	Duration time.Duration
	Target   float64
}

// Duration returns the load's scheduled length, excluding graceful stops.
func (l *Load) Duration() time.Duration {
	if l.Model == Iterations {
		return l.MaxDuration
	}
	var d time.Duration
	for _, s := range l.Stages {
		d += s.Duration
	}
	return d
}

// StepKind tells a request step from a think step.
type StepKind uint8

// The kinds of flow step.
const (
	RequestStep StepKind = iota // send an HTTP request
	ThinkStep                   // pause, like a user reading the page
	GroupStep                   // a named sub-flow, timed as group_duration
	RepeatStep                  // a sub-flow run Block.Count times
	ForEachStep                 // a sub-flow run once per element of an extracted JSON array
	IfStep                      // a sub-flow run when a condition holds (Block.Else otherwise)
	ChooseStep                  // one of several sub-flows, picked by weight
	SetStep                     // sets variables from templates
	SessionStep                 // a session protocol's step (sse:): see Session
	AddStep                     // adds values to custom metrics
)

// Step is one element of a flow. A flow is compiled once into a tree:
// the control-flow kinds hold their sub-flows in Block, so a straight-line
// flow of requests and thinks costs what it did before they existed.
type Step struct {
	Kind     StepKind
	Request  *Request      // set for RequestStep
	ThinkMin time.Duration // ThinkStep: the pause is uniform in [ThinkMin, ThinkMax]
	ThinkMax time.Duration
	Block    *Block   // set for the control-flow kinds and SetStep
	Session  *Session // set for SessionStep
}

// BodyKind tells how a request body was written, which sets its content type.
type BodyKind uint8

// The kinds of request body.
const (
	NoBody   BodyKind = iota
	JSONBody          // application/json
	FormBody          // application/x-www-form-urlencoded
	RawBody           // as written; content type from the step's headers
)

// Request is a request step: what to send, and what to do with the response.
type Request struct {
	Endpoint   int32          // id in Layout.Endpoints
	Method     string         // upper case
	URL        *tmpl.Template // full URL, base URL and query included
	Headers    []Header       // default headers merged with the step's own
	Body       *tmpl.Template // nil when BodyKind is NoBody
	BodyKind   BodyKind
	BodyFile   string // the body_file: as written, which a distributed run sends to its agents
	BodyFileAt Error  // where body_file: is written, for a distributed run's refusal
	Timeout    time.Duration
	// ExpectStatus lists the statuses that are not failures of
	// http_req_failed (e.g. 409 for a sold-out coupon); nil means every
	// status below 400, as in k6.
	ExpectStatus []int
	Extract      []Extract
	Checks       []Check
	// MaxRedirects is how many redirects are followed inside one sample; 0 follows none.
	MaxRedirects int
	// MaxBody caps the bytes of a body kept for checks and extractions; the
	// rest is read and discarded, and the sample marked truncated.
	MaxBody int64
	// NeedBody is true when an extraction or check reads the response body,
	// so the engine keeps the body instead of discarding it as it streams in.
	NeedBody bool
}

// Header is a request header whose value may be templated.
type Header struct {
	Name  string
	Value *tmpl.Template
}

// Source says where an extraction or check looks in a response.
type Source uint8

// The parts of a response that extractions and checks can read.
const (
	FromStatus Source = iota // the status code (checks only)
	FromBody                 // the whole body text
	FromJSON                 // a JSON path into the body
	FromHeader               // a response header
	FromRegex                // the first match of a regex in the body (extractions only)
	FromSize                 // a message's length in bytes (checks of ws: steps only)
)

// Extract sets a VU variable from the response.
type Extract struct {
	Var     int            // slot in Scenario.Vars
	Name    string         // the variable's name
	From    Source         // FromJSON, FromHeader or FromRegex
	Path    jsonpath.Path  // FromJSON
	Header  string         // FromHeader (canonical form); with Regex, the regex applies to the header value
	Regex   *regexp.Regexp // FromRegex, or FromHeader with a regex: capture group 1 if present, else the match
	Default *string        // used when nothing matches; nil means a miss fails the check below
	Check   int32          // id of the implicit check "extract <name>", counting misses
}

// Op is a comparison in a check.
type Op uint8

// The comparisons a check can make.
const (
	OpIn       Op = iota // the status is one of Values (status checks)
	OpEq                 // equal (numerically when both sides are numbers)
	OpNe                 // not equal
	OpLt                 // less than (numbers)
	OpLte                // less than or equal (numbers)
	OpGt                 // greater than (numbers)
	OpGte                // greater than or equal (numbers)
	OpContains           // contains Values[0] as a substring
	OpMatches            // matches Regex
	OpExists             // present (or absent when Values[0] is "false")
)

// Check is a named assertion on a response. A failed check is counted under
// its name and does not make the request a failure.
type Check struct {
	ID     int32         // id in Layout.Checks
	Name   string        // as shown in summaries
	From   Source        // FromStatus, FromBody, FromJSON or FromHeader
	Path   jsonpath.Path // FromJSON
	Header string        // FromHeader (canonical form)
	Op     Op
	Values []string       // operands; numbers are parsed when compared
	Regex  *regexp.Regexp // OpMatches
	// Operand, when set, is the comparison's value as a template that reads
	// variables (or vu, iteration, …): rendered each time the check is
	// judged, in place of Values[0], which holds its source for display.
	Operand *tmpl.Template
	// OperandPath, when set, compares a json check with another value of
	// the same document ({json: $.available}) in place of Values[0].
	OperandPath jsonpath.Path
}

// DataMode says how CSV rows are handed to iterations.
type DataMode uint8

// The ways rows are handed out.
const (
	Sequential DataMode = iota // row i mod n for the i-th iteration of the scenario
	Random                     // a uniformly random row each iteration
	Unique                     // each row at most once in the whole run
)

// Data is a CSV file read at parse time; its columns are VU variables.
type Data struct {
	File        string     // path as written in the test
	FileAt      Error      // where the path is written, for a distributed run's refusal
	Columns     []string   // header row; column j fills Scenario.Vars slot j
	Rows        [][]string // without the header row, when the file is held (at most MaxDataInMemory bytes)
	Count       int64      // data rows
	Stream      *DataFile  // where to read the rows when they are not held (Rows is nil)
	Mode        DataMode
	StopOnEmpty bool   // Unique: true stops the scenario when rows run out, false fails the run
	Encoding    string // the file's encoding when not UTF-8: one of Encodings
}
