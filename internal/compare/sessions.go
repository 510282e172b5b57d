package compare

import (
	"regexp"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/sample"
)

// The session protocols' figures (SSE, WebSocket, gRPC: sample.Facts), in
// table order after the request figures, on the rows of endpoints with
// session steps only. Each is judged as the request figure Base names,
// on seconds that count the sessions' facts instead of requests (feeds),
// so the intervals, minimum effects and "not testable" are the same code.
const (
	SessionRate Metric = 32 + iota // sessions ended per second
	MsgRate                        // messages received per second
	FirstMsgP50                    // median time to first message
	FirstMsgP95                    // 95th percentile time to first message
	LengthP50                      // median session length
	LengthP95                      // 95th percentile session length
	endSessionMetrics
)

// ReplyP50 and ReplyP95 time a message sent to the reply that answered it
// (a WebSocket step's until:), judged as p50 and p95 on the sessions' seconds:
// lines only of rows where some run's sessions measured a reply, so a test
// without until: has none.
const (
	ReplyP50 Metric = 48 + iota
	ReplyP95
)

// StatusShare + k is the share of sessions that ended with failure kind k
// (a gRPC status code, a refused handshake, a reset): judged as errors.
const StatusShare Metric = 64

// Base is the request figure a metric is judged and written as: itself
// for the request figures; req/s for the session rates, p50 or p95 for
// the session durations, errors for a status's share.
func (m Metric) Base() Metric {
	switch {
	case m == SessionRate || m == MsgRate:
		return TPS
	case m == FirstMsgP50 || m == LengthP50 || m == ReplyP50:
		return P50
	case m == FirstMsgP95 || m == LengthP95 || m == ReplyP95:
		return P95
	case m >= StatusShare && m < StatusShare+Metric(sample.NumKinds):
		return ErrorRate
	}
	return m
}

// Unit is what a rate metric counts ("req", "session", "msg").
func (m Metric) Unit() string {
	switch m {
	case SessionRate:
		return "session"
	case MsgRate:
		return "msg"
	}
	return "req"
}

// sessionNames are the session metrics' names in tables and JSON.
var sessionNames = map[Metric]string{SessionRate: "sessions/s", MsgRate: "msgs received/s", FirstMsgP50: "first msg p50",
	FirstMsgP95: "first msg p95", LengthP50: "length p50", LengthP95: "length p95", ReplyP50: "reply p50", ReplyP95: "reply p95"}

// sessionName names a session metric as tables show it.
func (m Metric) sessionName() (string, bool) {
	if n, ok := sessionNames[m]; ok {
		return n, true
	}
	if m > StatusShare && m < StatusShare+Metric(sample.NumKinds) {
		return "ended " + statusName(sample.Kind(m-StatusShare)), true
	}
	return "", false
}

// statusName names how a session ended, as report's status table does: a
// gRPC failure kind by its code's name (UNAVAILABLE), any other by its own.
func statusName(k sample.Kind) string {
	if k >= sample.GRPCCancelled && k <= sample.GRPCUnauthenticated {
		return sample.GRPCCodeName(int(k-sample.GRPCCancelled) + 1)
	}
	return k.String()
}

// feed says what a view's seconds count: requests (feedRequests), or one
// of the session facts a session metric is judged on.
type feed uint8

const (
	feedRequests feed = iota
	feedFirst         // sessions, their failures, time to first message
	feedLength        // sessions, their failures, session length
	feedMsgs          // messages received
	feedReply         // sessions, their failures, reply time
	feedKind0         // + k: session requests, and those that failed with kind k
)

// feedOf is the feed metric m is judged on.
func feedOf(m Metric) feed {
	switch m {
	case SessionRate, FirstMsgP50, FirstMsgP95:
		return feedFirst
	case LengthP50, LengthP95:
		return feedLength
	case MsgRate:
		return feedMsgs
	case ReplyP50, ReplyP95:
		return feedReply
	}
	return feedKind0 + feed(m-StatusShare)
}

// sessionFeeds are the feeds a comparison reads: none when no run has a
// session endpoint, so an HTTP comparison is what it was; else the facts,
// the reply time when some run's sessions measured one, and a status feed
// per failure kind some run's sessions ended with.
func sessionFeeds(ins []Input) []feed {
	var out []feed
	var kinds [sample.NumKinds]bool
	replies := false
	for _, in := range ins {
		for e, ep := range in.Run.Layout.Endpoints {
			if ep.Protocol == "" || e >= len(in.Run.Endpoints) {
				continue
			}
			if out == nil {
				out = []feed{feedFirst, feedLength, feedMsgs}
			}
			replies = replies || hasReply(in.Run.Endpoints[e].Facts)
			for k := sample.OK + 1; k < sample.NumKinds; k++ {
				kinds[k] = kinds[k] || in.Run.Endpoints[e].Failures[k] > 0
			}
		}
	}
	if replies {
		out = append(out, feedReply)
	}
	for k, ok := range kinds {
		if ok {
			out = append(out, feedKind0+feed(k))
		}
	}
	return out
}

// makeFeeds makes a view of the run's compared seconds per feed: none
// without feeds, so a run without sessions reads its seconds once.
func (v *runView) makeFeeds(feeds []feed) {
	for _, f := range feeds {
		if v.feeds == nil {
			v.feeds = map[feed]*runView{}
		}
		v.feeds[f] = v.feedView(f)
	}
}

// feedView is a view of the same run and compared seconds whose seconds
// count feed f.
func (v *runView) feedView(f feed) *runView {
	fv := &runView{info: v.info, run: v.run, exact: v.exact, endpoint: v.endpoint, first: v.first, last: v.last, iters: v.iters, feed: f, lag: v.lag}
	fv.rows = make([]*rowSeconds, len(v.rows))
	for r, rs := range v.rows {
		if rs != nil && fv.sessionRow(r) {
			fv.rows[r] = &rowSeconds{hasLat: rs.hasLat}
		}
	}
	fv.res = make([]*resampled, len(fv.rows))
	return fv
}

// session reports whether endpoint id of the run has session steps.
func (v *runView) session(id int) bool {
	eps := v.run.Layout.Endpoints
	return id < len(eps) && eps[id].Protocol != ""
}

// sessionRow reports whether row r holds a session endpoint.
func (v *runView) sessionRow(r int) bool {
	if e := v.endpoint[r]; e != -1 {
		return e >= 0 && v.session(e)
	}
	for id := range v.run.Layout.Endpoints {
		if v.session(id) {
			return true
		}
	}
	return false
}

// addFeed adds one endpoint's second to sec as the view's feed counts it.
func (v *runView) addFeed(sec *second, es *metrics.EndpointSecond) {
	var failed int64
	for k := sample.OK + 1; k < sample.NumKinds; k++ {
		failed += es.Failures[k]
	}
	f := es.Facts
	switch {
	case v.feed >= feedKind0:
		sec.reqs += es.Requests
		sec.failed += es.Failures[v.feed-feedKind0]
	case f == nil:
	case v.feed == feedMsgs:
		sec.reqs += f.MsgsReceived
	default:
		sec.reqs += f.Sessions
		sec.failed += min(failed, f.Sessions)
		if h := v.feedHist(f); h != nil {
			sec.lat = addHist(sec.lat, h)
		}
	}
}

// feedHist is the durations a fact feed times.
func (v *runView) feedHist(f *metrics.FactFigures) *metrics.Hist {
	switch v.feed {
	case feedFirst:
		return f.Trend(sample.FactFirstMsg)
	case feedLength:
		return f.Trend(sample.FactSession)
	case feedReply:
		return f.Trend(sample.FactReply)
	}
	return nil
}

// factHist is the exact histogram of a fact feed over the compared
// seconds, of endpoint e or (-1) every session endpoint merged.
func (v *runView) factHist(e int) *metrics.Hist {
	if e >= 0 {
		if f := v.exact.Endpoints[e].Facts; f != nil {
			return v.feedHist(f)
		}
		return nil
	}
	if v.total == nil {
		v.total = metrics.NewHist()
		for id := range v.exact.Endpoints {
			if f := v.exact.Endpoints[id].Facts; f != nil && v.session(id) {
				if h := v.feedHist(f); h != nil && h.Count() > 0 {
					v.total.Merge(h)
				}
			}
		}
	}
	return v.total
}

// sessionLines are row r's session metrics, judged on their feeds: none
// when no run has a session endpoint in the row.
func (c *comparer) sessionLines(r int) []Line {
	session := false
	for _, v := range c.views {
		session = session || v.feeds != nil && v.sessionRow(r)
	}
	if !session {
		return nil
	}
	var out []Line
	for m := SessionRate; m < endSessionMetrics; m++ {
		out = append(out, c.feedLine(r, m))
	}
	if c.replied(r) {
		out = append(out, c.feedLine(r, ReplyP50), c.feedLine(r, ReplyP95))
	}
	for k := sample.OK + 1; k < sample.NumKinds; k++ {
		if c.endedWith(r, k) {
			out = append(out, c.feedLine(r, StatusShare+Metric(k)))
		}
	}
	return out
}

// replied reports whether some run's sessions of row r measured a reply time.
func (c *comparer) replied(r int) bool {
	for _, v := range c.views {
		e := v.endpoint[r]
		for id := range v.run.Endpoints {
			if (e == -1 || id == e) && v.session(id) && hasReply(v.run.Endpoints[id].Facts) {
				return true
			}
		}
	}
	return false
}

// hasReply reports whether facts hold a reply time.
func hasReply(f *metrics.FactFigures) bool {
	if f == nil {
		return false
	}
	h := f.Trend(sample.FactReply)
	return h != nil && h.Count() > 0
}

// endedWith reports whether some run's sessions of row r failed with kind k.
func (c *comparer) endedWith(r int, k sample.Kind) bool {
	for _, v := range c.views {
		e := v.endpoint[r]
		for id := range v.run.Endpoints {
			if (e == -1 || id == e) && v.session(id) && v.run.Endpoints[id].Failures[k] > 0 {
				return true
			}
		}
	}
	return false
}

// feedLine judges session metric m of row r with the request figure it
// stands for, on every run's feed view: the same comparer, other seconds.
func (c *comparer) feedLine(r int, m Metric) Line {
	sub := comparer{opts: c.opts, groups: c.groups, views: make([]*runView, len(c.views))}
	for i, v := range c.views {
		sub.views[i] = v.feeds[feedOf(m)]
		if sub.views[i] == nil { // a run read without snapshots, or without such a feed: no figure
			sub.views[i] = &runView{info: v.info, run: v.run, rows: make([]*rowSeconds, len(v.rows)), endpoint: v.endpoint}
		}
	}
	line := Line{Metric: m, Values: make([]Value, len(c.groups))}
	for g := range c.groups {
		line.Values[g] = sub.groupValue(g, r, m.Base())
	}
	for g := 1; g < len(c.groups); g++ {
		sub.change(&line.Values[g], line.Values[0], g, r, m.Base())
		line.Values[g].NotTested = sessionWords(line.Values[g].NotTested, m)
	}
	c.boot, c.repl, c.tail, c.apart = c.boot || sub.boot, c.repl || sub.repl, c.tail || sub.tail, c.apart || sub.apart
	for _, b := range []int{sub.minB, sub.maxB} {
		if b > 0 {
			c.noteBlock(b)
		}
	}
	return line
}

var (
	requestsWord = regexp.MustCompile(`\brequests\b`)
	requestWord  = regexp.MustCompile(`\brequest\b`)
)

// sessionWords says what a session line's seconds count where the request
// figure's reasons say requests: its messages, else its sessions.
func sessionWords(why string, m Metric) string {
	one, many := "session", "sessions"
	if m == MsgRate {
		one, many = "message", "messages"
	}
	return requestWord.ReplaceAllString(requestsWord.ReplaceAllString(why, many), one)
}
