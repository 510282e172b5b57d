package metrics

import (
	"fmt"
	"math"

	"github.com/loadlens/loadlens/internal/sample"
)

// AddCounts returns total plus every count, byte total, summed time and
// histogram count s holds, added with checked addition; it fails, naming
// the field by layout's names, when one is negative or the sum would pass
// the largest int64. Counts from outside (a distributed run's agents) go
// through it before they merge: every later merge of them (a second's
// agents, an agent's totals, the run's endpoints and "all endpoints") adds
// some of these non-negative numbers, so it cannot overflow while their
// sum does not. Unchecked, one agent's 2^62 requests a second wrapped a
// run's totals negative and the run passed.
func (s *Snapshot) AddCounts(total int64, layout sample.Layout) (int64, error) {
	if err := s.CheckLayout(layout); err != nil {
		return total, err
	}
	c := counter{total: total}
	for i := range s.Endpoints {
		if c.endpoint(&s.Endpoints[i]); c.field != "" {
			return total, c.err(fmt.Sprintf("endpoint %q", layout.Endpoints[i].Name))
		}
	}
	for i := range s.Scenarios {
		if c.scenario(&s.Scenarios[i]); c.field != "" {
			return total, c.err(fmt.Sprintf("scenario %q", layout.Scenarios[i].Name))
		}
	}
	for i := range s.Checks {
		ck := &s.Checks[i]
		c.add("passes", ck.Passes)
		c.add("fails on bodies not JSON", ck.NotJSON)
		c.add("fails on no value", ck.NoValue)
		for _, st := range ck.Statuses {
			c.add("passes of a status", st.Passes)
			c.add("fails of a status", st.Fails)
		}
		if c.add("fails", ck.Fails); c.field != "" {
			return total, c.err(fmt.Sprintf("check %q", layout.Checks[i].Name))
		}
	}
	for i := range s.Groups {
		if c.hist("duration", s.Groups[i].Duration); c.field != "" {
			return total, c.err(fmt.Sprintf("group %q", layout.Groups[i].Name))
		}
	}
	for i := range s.Metrics {
		m := &s.Metrics[i]
		c.add("values", m.Count)
		c.add("true values", m.Trues)
		c.add("invalid values", m.Invalid)
		if c.hist("trend", m.Trend); c.field != "" {
			return total, c.err(fmt.Sprintf("custom metric %q", layout.Metrics[i].Name))
		}
	}
	return c.total, nil
}

// counter sums numbers until the first that is negative or would take the
// sum past the largest int64.
type counter struct {
	total int64
	field string // the first number not added; "" while all were
	v     int64
}

func (c *counter) add(field string, v int64) {
	if c.field == "" && (v < 0 || c.total > math.MaxInt64-v) {
		c.field, c.v = field, v
		return
	}
	if c.field == "" {
		c.total += v
	}
}

func (c *counter) hist(field string, h *Hist) { c.add(field+" histogram's count", h.Count()) }

func (c *counter) samples(field string, list []ErrorSample) {
	for _, es := range list {
		c.add(field, es.Count)
	}
}

func (c *counter) err(where string) error {
	if c.v < 0 {
		return fmt.Errorf("%s: %s: negative value %d", where, c.field, c.v)
	}
	return fmt.Errorf("%s: %s: %d would take the run's counts past the largest 64-bit integer (%d counted before it)", where, c.field, c.v, c.total)
}

func (c *counter) endpoint(e *EndpointSecond) {
	c.add("requests", e.Requests)
	for k := range e.Failures {
		c.add(sample.Kind(k).String()+" failures", e.Failures[k])
	}
	c.add("truncated bodies", e.Truncated)
	c.add("bytes sent", e.Sent)
	c.add("bytes received", e.Received)
	c.add("connect time", int64(e.ConnectSum))
	c.add("TLS time", int64(e.TLSSum))
	c.add("connects", e.Connects)
	c.add("TLS handshakes", e.TLSHandshakes)
	c.add("redirects", e.Redirects)
	c.hist("duration", e.Duration)
	c.hist("waiting", e.Waiting)
	c.hist("successful duration", e.Expected)
	c.samples("error sample's count", e.Errors)
	for j := range e.ByStatus {
		c.add("requests by status", e.ByStatus[j].Requests)
		c.hist("duration by status", e.ByStatus[j].Duration)
	}
	if f := e.Facts; f != nil {
		c.add("sessions", f.Sessions)
		c.add("messages sent", f.MsgsSent)
		c.add("messages received", f.MsgsReceived)
		c.add("reconnects", f.Reconnects)
		c.hist("first message", f.FirstMsg)
		c.hist("session", f.Session)
		c.hist("message gap", f.Gap)
		c.hist("reply", f.Reply)
	}
}

func (c *counter) scenario(sc *ScenarioSecond) {
	c.add("iterations", sc.Iterations)
	c.add("dropped iterations", sc.Dropped)
	c.add("offered arrivals", sc.Offered)
	c.add("iterations not sent", sc.NotSent)
	c.samples("reason not sent's count", sc.NotSentWhy)
	c.add("VUs", sc.VUs)
	c.add("allocated VUs", sc.VUsMax)
	c.hist("iteration duration", sc.IterationDuration)
	c.hist("lag", sc.Lag)
}
