package engine

import (
	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/sample"
)

// answerRead is what a check's record says of its answer before the check
// judged it: the response's status, 0 when none came.
func answerRead(rs *response) sample.CheckRead {
	if rs == nil {
		return sample.CheckRead{}
	}
	return sample.CheckRead{Status: rs.status}
}

// notJSON reports whether a whole body did not decode as JSON (a body cut
// at max_body the run counts apart).
func notJSON(rs *response) bool {
	if rs == nil || rs.cut {
		return false
	}
	_, err := rs.json()
	return err != nil
}

// noValue reports whether a JSON body held no value at check c's path: the
// check could not read what it judges (an exists check judges just that).
func noValue(c *plan.Check, rs *response) bool {
	if rs == nil || c.Op == plan.OpExists {
		return false
	}
	doc, err := rs.json()
	if err != nil {
		return false
	}
	_, found := c.Path.Lookup(doc)
	return !found
}
