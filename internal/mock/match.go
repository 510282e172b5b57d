package mock

import (
	"encoding/json"
	"net/url"
	"regexp"
	"strings"

	"github.com/loadlens/loadlens/internal/jsonpath"
)

// matcher is one condition a request must meet for a route to answer it.
type matcher struct {
	where string // header, query, cookie or body
	key   string // the header (canonical), query parameter or cookie name; body: unused
	path  jsonpath.Path
	json  bool // body: compare the value at path
	cmp   comparison
}

// comparison is a test on a text value that may be absent.
type comparison struct {
	op     string // eq, ne, contains, matches or exists
	value  string
	re     *regexp.Regexp
	exists bool // op exists: whether the value must be present
}

// test applies the comparison to v (present says whether there is a value).
func (c *comparison) test(v string, present bool) bool {
	switch c.op {
	case "exists":
		return present == c.exists
	case "ne":
		return !present || v != c.value
	}
	if !present {
		return false
	}
	switch c.op {
	case "eq":
		return v == c.value
	case "contains":
		return strings.Contains(v, c.value)
	case "matches":
		return c.re.MatchString(v)
	}
	return false
}

// request is what matching and templating read from one request; the body
// is read at most once, and only when a route needs it.
type request struct {
	x        exchange
	query    url.Values // parsed on first use
	body     []byte
	bodyRead bool
	doc      any // the body as JSON, parsed on first use
	docDone  bool
	form     url.Values
}

func (q *request) queryValues() url.Values {
	if q.query == nil {
		q.query, _ = url.ParseQuery(q.x.rawQuery())
	}
	return q.query
}

func (q *request) readBody() []byte {
	if !q.bodyRead {
		q.bodyRead = true
		q.body = q.x.readBody(maxReqBody)
	}
	return q.body
}

func (q *request) jsonDoc() any {
	if !q.docDone {
		q.docDone = true
		var v any
		if json.Unmarshal(q.readBody(), &v) == nil {
			q.doc = v
		}
	}
	return q.doc
}

func (q *request) formValues() url.Values {
	if q.form == nil {
		q.form = url.Values{}
		if strings.HasPrefix(q.x.contentType(), "application/x-www-form-urlencoded") {
			if v, err := url.ParseQuery(string(q.readBody())); err == nil {
				q.form = v
			}
		}
	}
	return q.form
}

// lookup returns the value a matcher or variable reads.
func (q *request) lookup(where, key string, path jsonpath.Path) (string, bool) {
	switch where {
	case "header":
		return q.x.header(key)
	case "query":
		vs := q.queryValues()[key]
		if len(vs) == 0 {
			return "", false
		}
		return vs[0], true
	case "cookie":
		return q.x.cookie(key)
	case "form":
		vs := q.formValues()[key]
		if len(vs) == 0 {
			return "", false
		}
		return vs[0], true
	case "json":
		doc := q.jsonDoc()
		if doc == nil {
			return "", false
		}
		v, ok := path.Lookup(doc)
		if !ok {
			return "", false
		}
		return jsonpath.Format(v), true
	case "body":
		return string(q.readBody()), true
	}
	return "", false
}

// matches reports whether the request meets the matcher.
func (m *matcher) matches(q *request) bool {
	where := m.where
	if m.json {
		where = "json"
	}
	v, ok := q.lookup(where, m.key, m.path)
	return m.cmp.test(v, ok)
}
