package mock

// exchange is one request and its answer, as the handler sees it: the
// request's parts it reads and the answers it can give.
type exchange interface {
	method() string
	path() string // decoded
	rawQuery() string
	host() string
	header(name string) (string, bool) // name in canonical form
	cookie(name string) (string, bool)
	contentType() string
	readBody(limit int) []byte // at most limit bytes of the body; called once
	done() <-chan struct{}     // closed when the answer is no longer wanted

	setHeader(name string, values []string) // values are shared read-only
	answer(status int, body []byte, shared bool)
	answerPaced(status int, body []byte, bps float64)
	reset()
}
