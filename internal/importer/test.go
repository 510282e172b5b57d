// Package importer turns what a team already has — an OpenAPI spec, a
// browser recording (HAR), curl command lines, a k6 script — into a loadlens
// test file. Each source has a subpackage that builds a Test; Render writes
// it as YAML and checks that loadlens parses it, so every import validates.
package importer

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/loadlens/loadlens/internal/units"
)

// Test is a test file being built by an import.
type Test struct {
	Source       string      // what was imported, for the file's opening comment
	Notes        []string    // lines for the opening comment: what the import decided
	NotConverted []string    // what the import could not turn into the test, each a line
	Read         []LocalFile // files of this machine copied into the test (curl's -d @file), said so none goes unnoticed
	Name         string
	BaseURL      string // a template: may read the environment
	Headers      []Header
	Insecure     bool
	Redirects    string // how many redirects a request follows (a count as written); "": the default, 10
	Metrics      []KV   // custom metrics: name → counter, rate or trend (a string), or a []KV for a time trend
	Thresholds   []Threshold
	Setup        []Step // run once before the scenarios; their variables every VU reads
	SetupTimeout string // setup_timeout: the setup's bound, a duration time.ParseDuration reads, written as is; "": the default, 60s
	Scenarios    []*Scenario
	Teardown     []Step // run once after the scenarios
	// TeardownTimeout is teardown_timeout, as SetupTimeout.
	TeardownTimeout string
}

// LocalFile is a file of this machine whose content an import copied into
// the test: a command line may name any file (-d @/etc/passwd), and what
// goes into a test may be shared, so each is said with its size.
type LocalFile struct {
	Path string
	Size int64  // bytes read
	Into string // where it went, e.g. "the body of command 1"
}

// MaxLocalFile is the most an import copies of one local file into a test:
// a larger body belongs in a body_file the test names.
const MaxLocalFile = 1 << 20

// Header is a request header; Value is a template.
type Header struct{ Name, Value string }

// Threshold is one metric's pass/fail criteria.
type Threshold struct {
	Metric     string // with its filter, e.g. http_req_duration{scenario:"a"}
	Exprs      []string
	Abort      bool
	DelayAbort string
}

// Scenario is one scenario: its load, as ordered keys, and its flow.
type Scenario struct {
	Name string
	Load []KV // model, vus, duration, stages, ... in the order written
	Flow []Step
}

// KV is an ordered key and value: a string (written quoted), a Raw (as is),
// a []Stage or a nested []KV.
type KV struct {
	Key   string
	Value any
}

// Raw is a YAML value written as it is (a number, a boolean).
type Raw string

// Stage is one {duration, target} of a ramp.
type Stage struct {
	Duration string
	Target   string // a number, as written
}

// Step is a request or a think.
type Step struct {
	Comment string // a line above the step
	Think   string // a think step: "1s" or "1s..3s"; nothing else is set
	Group   string // a group step (k6's group()): its name; only Steps is set besides
	Steps   []Step // a group, repeat or for_each step's steps
	// Repeat is a repeat: step's count (k6's for (let i = 0; i < N; i++));
	// only Steps is set besides.
	Repeat int
	// ForEach is a for_each: step's variable, holding a JSON array (k6's
	// for (const x of list)); As, EachPath, Max and Steps apply.
	ForEach, As, EachPath string
	Max                   int  // a for_each's max:, 0 for its default
	Set                   []KV // a set: step: variables and their values (templates); nothing else is set

	Method, Path string // the path is a template (a full URL when not under the base URL)
	Name         string // the endpoint name, when not the path
	Headers      []Header
	JSON         any    // a JSON body: Object, []any, string (a template), float64, json.Number, bool or nil
	Form         []KV   // form fields, values templates
	Body         string // a raw body, a template
	HasBody      bool   // Body is set (it may be empty)
	Timeout      string
	Redirects    string // how many redirects this request follows (a count as written); "": the test's
	ExpectStatus []int
	Check        []Check
	Extract      []Extract

	GRPC *GRPCCall  // a grpc: step: Name, Headers (its metadata), Timeout, Check and Extract apply
	WS   *WSSession // a ws: step: Path is its URL; Name, Headers, Timeout and Check apply
	Add  []KV       // an add: step (custom metrics): a metric's name and its value, a template; nothing else is set
	// If is an if: step's condition as YAML ({checks: passed}), with its
	// Then and Else steps (Unless: an unless: step's); nothing else is set.
	If         string
	Unless     bool
	Then, Else []Step
}

// GRPCCall is a grpc: step's call.
type GRPCCall struct {
	Target      string   // host:port, grpc://host:port or grpcs://host:port
	Method      string   // package.Service/Method
	Protos      []string // .proto files; none: the server's reflection
	ImportPaths []string
	Message     string   // the request message as JSON text (a template)
	Messages    []string // or a stream's request messages
}

// WSSession is a ws: step's session.
type WSSession struct {
	Sends       []WSSend
	Duration    string // how long the session stays open
	MaxMessages int
}

// WSSend is a text message a ws: step sends when the session opens, and
// again every Every when set.
type WSSend struct {
	Text  string // a template
	Every string
}

// Object is a JSON object with its members in order.
type Object []Member

// Member is one member of an Object.
type Member struct {
	Key   string
	Value any
}

// Check is one check; exactly one kind is set.
type Check struct {
	Name         string
	Status       []int
	BodyContains string
	BodyMatches  string // a regular expression
	JSON         string // a JSON path, with one comparison below
	Op           string // eq, ne, contains, matches, exists, lt, lte, gt, gte
	Value        any    // the comparison's value: string or Raw
}

// Extract sets a variable from a response.
type Extract struct {
	Var    string
	JSON   string
	Header string
	Regex  string
	// Default is what a miss sets; nil: none, and a miss fails the
	// extraction's implicit check "extract <var>".
	Default *string
}

// Lit returns s as template text that renders to s itself: "{{" becomes
// {{ "{{" }}, as literal text from a recording or a spec must.
func Lit(s string) string {
	if !strings.Contains(s, "{{") {
		return s
	}
	return strings.ReplaceAll(s, "{{", `{{ "{{" }}`)
}

// Duration writes d as a test file duration: 1.5s, 250ms, 2m0s.
func Duration(d time.Duration) string {
	if d <= 0 {
		return "0s"
	}
	return d.Round(time.Millisecond).String()
}

// EnvDuration is a duration read from the environment variable name,
// with def when it is not set, so one file runs briefly in CI.
func EnvDuration(name, def string) string {
	return `{{ env("` + name + `", "` + def + `") }}`
}

// DefaultLoad is an import's load when its source gives none: one VU for a
// minute, the duration from the environment so a CI run can be short
// (-e DURATION=5s).
func DefaultLoad() []KV {
	return []KV{{"vus", Raw("1")}, {"duration", EnvDuration("DURATION", "1m")}}
}

// Load returns a scenario's load from an import's flags: rate iterations
// per second (an open model) when above 0, else vus VUs; for duration, read
// from the environment (DURATION) with duration as its default.
func Load(vus int, rate float64, duration string) []KV {
	d := EnvDuration("DURATION", duration)
	if rate > 0 {
		return []KV{{"model", "arrival-rate"}, {"rate", Raw(strconv.FormatFloat(rate, 'g', -1, 64))}, {"duration", d}}
	}
	return []KV{{"vus", Raw(strconv.Itoa(max(vus, 1)))}, {"duration", d}}
}

// String says the file, its size and where it went.
func (f LocalFile) String() string {
	return fmt.Sprintf("%s (%s), %s", f.Path, units.CountOf(f.Size, "byte", "bytes"), f.Into)
}

// EachStep calls fn for every request and think step of flow, those in
// groups and loops included, in order.
func EachStep(flow []Step, fn func(*Step)) {
	for i := range flow {
		if flow[i].Group != "" || flow[i].Repeat > 0 || flow[i].ForEach != "" {
			EachStep(flow[i].Steps, fn)
			continue
		}
		if flow[i].If != "" {
			EachStep(flow[i].Then, fn)
			EachStep(flow[i].Else, fn)
			continue
		}
		fn(&flow[i])
	}
}
