package sse

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
	"time"

	"github.com/loadlens/loadlens/internal/jsonpath"
	"github.com/loadlens/loadlens/internal/plan"
)

// checkHead judges the status and header checks on a response head.
func (s *session) checkHead(resp *http.Response) {
	now := time.Now()
	for i := range s.st.s.Checks {
		c := &s.st.s.Checks[i]
		switch c.From {
		case plan.FromStatus:
			s.vu.Check(c.ID, now, c.Compare(strconv.Itoa(resp.StatusCode), true))
		case plan.FromHeader:
			vals := resp.Header.Values(c.Header)
			if c.Op == plan.OpExists {
				s.vu.Check(c.ID, now, (len(vals) > 0) == c.ExistsWanted())
				continue
			}
			s.vu.Check(c.ID, now, len(vals) > 0 && c.Compare(vals[0], true))
		}
	}
}

// checkEvent judges the body and json checks on one event's data.
func (s *session) checkEvent(data []byte, now time.Time) {
	var doc any
	docErr := error(nil)
	if s.st.json {
		docErr = json.Unmarshal(data, &doc)
	}
	for i := range s.st.s.Checks {
		c := &s.st.s.Checks[i]
		switch c.From {
		case plan.FromBody:
			s.vu.Check(c.ID, now, bodyCheck(c, data))
		case plan.FromJSON:
			s.vu.Check(c.ID, now, docErr == nil && jsonCheck(c, doc))
		}
	}
}

func bodyCheck(c *plan.Check, data []byte) bool {
	switch c.Op {
	case plan.OpContains:
		return bytes.Contains(data, []byte(c.Values[0]))
	case plan.OpMatches:
		return c.Regex.Match(data)
	}
	return c.Compare(string(data), true)
}

func jsonCheck(c *plan.Check, doc any) bool {
	val, ok := c.Path.Lookup(doc)
	if c.Op == plan.OpExists {
		return ok == c.ExistsWanted()
	}
	return ok && c.Compare(jsonpath.Format(val), true)
}
