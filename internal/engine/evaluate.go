package engine

import (
	"strconv"
	"time"

	"github.com/loadlens/loadlens/internal/jsonpath"
	"github.com/loadlens/loadlens/internal/plan"
)

// evaluate runs a request step's extractions and checks on its response;
// rs is nil when no response arrived, which fails every check and extraction.
// Checks count in the second the response ended, end.
func (v *vu) evaluate(r *plan.Request, rs *response, end time.Duration) {
	v.lastStatus, v.checksOK = 0, rs != nil
	if rs != nil {
		v.lastStatus = rs.status
	}
	for i := range r.Extract {
		ex := &r.Extract[i]
		val, ok := extract(ex, rs)
		if !ok && ex.Default != nil {
			val, ok = *ex.Default, true
		}
		v.tc.Vars[ex.Var] = val
		if ex.Default == nil {
			read := answerRead(rs)
			if !ok && ex.From == plan.FromJSON {
				v.unreadJSON(ex.Check, rs)
				read.NotJSON, read.NoValue = notJSON(rs), true // an extraction that failed found no value
			}
			v.sink.CheckAnswer(ex.Check, end, ok, read)
			v.checksOK = v.checksOK && ok
		}
	}
	for i := range r.Checks {
		c := &r.Checks[i]
		ok := v.check(c, rs)
		read := answerRead(rs)
		if !ok && c.From == plan.FromJSON {
			v.unreadJSON(c.ID, rs)
			read.NotJSON, read.NoValue = notJSON(rs), noValue(c, rs)
		}
		v.sink.CheckAnswer(c.ID, end, ok, read)
		v.checksOK = v.checksOK && ok
	}
}

// unreadJSON has the engine say why check id failed when the body did not
// decode as JSON (decoded once per response: the check already did); not
// for a body cut at max_body, which the run counts and says apart.
func (v *vu) unreadJSON(id int32, rs *response) {
	if rs == nil || rs.cut {
		return
	}
	if _, err := rs.json(); err != nil {
		v.sc.e.unread.report(v.sc.e, id, rs.body, err)
	}
}

// extract returns the value an extraction finds, and whether it found one.
func extract(ex *plan.Extract, rs *response) (string, bool) {
	if rs == nil {
		return "", false
	}
	var text string
	switch ex.From {
	case plan.FromJSON:
		doc, err := rs.json()
		if err != nil {
			return "", false
		}
		val, ok := ex.Path.Lookup(doc)
		if !ok {
			return "", false
		}
		return jsonpath.Format(val), true
	case plan.FromHeader:
		vals := rs.headerValues(ex.Header)
		if len(vals) == 0 {
			return "", false
		}
		if ex.Regex == nil {
			return vals[0], true
		}
		for _, hv := range vals { // e.g. the right one of several Set-Cookie headers
			if m, ok := submatch(ex, hv); ok {
				return m, true
			}
		}
		return "", false
	case plan.FromRegex, plan.FromBody:
		text = string(rs.body)
	}
	if ex.Regex == nil {
		return text, true
	}
	return submatch(ex, text)
}

// submatch returns capture group 1 when the regex has one, else the match.
func submatch(ex *plan.Extract, s string) (string, bool) {
	m := ex.Regex.FindStringSubmatch(s)
	switch {
	case m == nil:
		return "", false
	case len(m) > 1:
		return m[1], true
	default:
		return m[0], true
	}
}

// check evaluates one check against a response; a check whose value is
// known only as the run goes (a template, another value of the body)
// compares with it, and says once why it could not.
func (v *vu) check(c *plan.Check, rs *response) bool {
	if !c.Dynamic() || rs == nil {
		return check(c, rs)
	}
	want := c.Values[0]
	if c.Operand != nil { // rendered afresh: a later step's value must not alias it
		want = string(c.Operand.Render(nil, &v.tc))
	}
	var ok bool
	var why error
	switch c.From {
	case plan.FromHeader:
		if vals := rs.headerValues(c.Header); len(vals) > 0 {
			ok, why = c.CompareTo(vals[0], want)
		}
	case plan.FromJSON:
		doc, err := rs.json()
		ok, why = c.JudgeJSON(doc, err, want)
	}
	if why != nil {
		v.sc.e.operands.reportWhy(v.sc.e, c.ID, why)
	}
	return ok
}

// check evaluates one check, compared with its value as written, against a response.
func check(c *plan.Check, rs *response) bool {
	if rs == nil {
		return false
	}
	switch c.From {
	case plan.FromStatus:
		return c.Compare(strconv.Itoa(rs.status), true)
	case plan.FromBody:
		return c.MatchBody(rs.body)
	case plan.FromHeader:
		vals := rs.headerValues(c.Header)
		if c.Op == plan.OpExists {
			return (len(vals) > 0) == c.ExistsWanted()
		}
		return len(vals) > 0 && c.Compare(vals[0], true)
	case plan.FromJSON:
		return c.MatchJSON(rs.json())
	}
	return false
}
