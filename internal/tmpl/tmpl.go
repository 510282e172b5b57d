package tmpl

import "math/rand/v2"

// Scope tells Compile which names a template may use.
type Scope struct {
	Vars map[string]int              // variable name → slot in Context.Vars
	Env  func(string) (string, bool) // environment lookup; nil means os.LookupEnv
}

// Escape says how a template's output is escaped when embedded elsewhere.
type Escape uint8

// The escapings a template can apply to its output.
const (
	Raw            Escape = iota // as rendered
	JSONString                   // escaped for the inside of a JSON string (no quotes added)
	QueryComponent               // escaped with url.QueryEscape
	JSONValue                    // a whole JSON value (number, string, object...) as is; anything else as a JSON string, quoted
)

// Error is a compile error at a byte offset of the template's source.
type Error struct {
	Offset int
	Msg    string
}

func (e *Error) Error() string { return e.Msg }

// Context is what a VU renders templates with.
type Context struct {
	Vars      []string   // variable values by slot
	VU        int64      // the VU's number, from 1
	Iteration int64      // the VU's iteration number, from 0
	Scenario  string     // the scenario's name
	Rand      *rand.Rand // the VU's own random source
}

// Template is a compiled template. It is immutable and safe for concurrent use.
type Template struct {
	parts []part
	src   string
}

// partKind says what a part renders.
type partKind uint8

// The kinds of part a template is made of.
const (
	litPart        partKind = iota // text
	varPart                        // Context.Vars[slot]
	vuPart                         // Context.VU
	iterationPart                  // Context.Iteration
	scenarioPart                   // Context.Scenario
	randIntPart                    // uniform integer in [lo, hi]
	randStringPart                 // lo characters of [A-Za-z0-9]
	uuidPart                       // random version 4 UUID
	pickPart                       // one of choices
	timestampPart                  // Unix milliseconds at render time
	escapedPart                    // sub rendered, then escaped with esc
	urlPart                        // sub as a URL on base text (see JoinURL), then query
)

// part is one piece of a compiled template; only the fields of its kind are set.
type part struct {
	kind    partKind
	ws      bool     // urlPart: a ws:// or wss:// value is a full URL too (JoinWSURL)
	text    string   // litPart
	slot    int      // varPart
	lo, hi  int64    // randIntPart bounds; randStringPart length in lo
	choices []string // pickPart
	esc     Escape   // escapedPart
	sub     []part   // escapedPart, urlPart
	query   []part   // urlPart
}
