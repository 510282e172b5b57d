package engine

import (
	"errors"
	"strconv"

	"github.com/loadlens/loadlens/internal/plan"
)

// unsendable says why a request was not sent: its URL, once its template
// was filled in, holds a byte no request line can carry. The message names
// the template, so the value (a data file's, an extraction's) can be found;
// before, it was the client's "invalid URL for HTTP/1.1".
func unsendable(r *plan.Request, url []byte) error {
	at := -1
	for i, b := range url {
		if b < 0x20 || b == 0x7f {
			at = i
			break
		}
	}
	if at < 0 {
		return nil
	}
	what := "a control character"
	if url[at] == '\r' || url[at] == '\n' {
		what = "a line break"
	}
	return errors.New("not sent: " + r.Method + " " + r.URL.String() + " has " + what + " at byte " + strconv.Itoa(at+1) +
		" once filled in; the value that put it there (from a data file or an extraction) cannot go in a URL")
}
