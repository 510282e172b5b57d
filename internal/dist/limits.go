package dist

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/units"
)

// The bounds of what an agent may send during a run. The token makes an
// agent trusted, not correct: a faulty or tampered one must not be able to
// make the coordinator's memory, output or run directory grow without end.
// An agent past a bound is lost, with its seconds so far kept.
const (
	// maxNoticeText is the longest notice text kept; the agent cuts a
	// longer one with a mark, as the coordinator does should one arrive.
	maxNoticeText = 4 << 10
	// maxNoticeFrame bounds a notice frame: its text JSON-escaped (up to
	// 6 bytes a byte) and the braces.
	maxNoticeFrame = 6*maxNoticeText + 1024
	// maxDoneFrame bounds the end's frame: its error and why it stopped,
	// each cut as a notice is.
	maxDoneFrame = 2*maxNoticeFrame + 1024
	// maxControlFrame bounds any other frame: a beat is empty.
	maxControlFrame = 4 << 10
	// noticesPerSecond and noticesPerRun are how many notices of one
	// agent are kept; the engine sends a few a scenario, and the rest are
	// counted and said once.
	noticesPerSecond = 10
	noticesPerRun    = 50
	// maxErrorText is the longest error message, or reason an iteration
	// was not sent, kept of an agent's second; a longer one is cut with a
	// mark, as a notice is. The engine's are a line (what a target said is
	// cut at sample.MaxTargetMessage, 512 bytes, before the request and the
	// cause are put round it), so only a tampered agent's are cut, whose
	// messages a frame alone bounds, while the run keeps three of a kind
	// for each endpoint and prints them in its reports.
	maxErrorText = maxNoticeText
	// lowestStatus and highestStatus bound the status an answer has: three
	// digits, none below 100, as the engine's HTTP/1 and HTTP/2 parsers
	// take them (RFC 9110 defines 100 to 599; a server may send 999). 0
	// is no answer: a connection that failed, a gRPC call.
	lowestStatus, highestStatus = 100, 999
	// secondMargin is how far past the test's length, graceful stops
	// included, an agent's second may still be: its last second, cut short.
	secondMargin = 10 * time.Second
)

// The parts of a second's frame besides its histograms: its head, the
// snapshot's counts, and for each endpoint its counters and error samples
// (three of each kind, whose messages are short).
const (
	secondBase    = 1 << 20
	endpointExtra = 64 << 10
	endpointHists = 7 // its durations, waits, successful durations and four of session facts
)

// agentLimits is the largest frame of each kind an agent may send in a
// run of a test of layout l.
func agentLimits(l sample.Layout) func(kind byte) uint32 {
	second := secondLimit(l)
	return func(kind byte) uint32 {
		switch kind {
		case kindSecond:
			return second
		case kindNotice:
			return maxNoticeFrame
		case kindDone:
			return maxDoneFrame
		}
		return maxControlFrame
	}
}

// secondLimit is the most bytes a second's frame of layout l can take:
// every histogram the layout has at its largest, and the rest with room.
func secondLimit(l sample.Layout) uint32 {
	hists := len(l.Endpoints)*(endpointHists+len(l.Statuses)) + 2*len(l.Scenarios) + len(l.Groups) + len(l.Metrics)
	n := secondBase + int64(hists)*metrics.MaxHistBinary + int64(len(l.Endpoints))*endpointExtra +
		int64(len(l.Metrics))*64 + int64(len(l.Checks))*2*binary.MaxVarintLen64
	return uint32(min(n, maxFrame))
}

// lastSecond is the last second an agent may send for plan p: its
// scenarios' start, load, graceful ramp-down and stop, and the margin.
func lastSecond(p *plan.Plan) int {
	var d time.Duration
	for _, s := range p.Scenarios {
		d = max(d, s.StartTime+s.Load.Duration()+s.Load.GracefulRampDown+s.GracefulStop)
	}
	return int(math.Ceil((d + secondMargin).Seconds()))
}

// early reports whether second sec, arriving at elapsed since the start,
// is ahead of any clock: it ends at sec+1 s, and an agent's clock may run
// ahead by secondMargin and 0.1% (a clock without NTP drifts 0.01%). So
// the seconds held before they are merged stay few, and so do those left
// to write when the run is stopped.
func early(sec int, elapsed time.Duration) bool {
	return time.Duration(sec)*time.Second > elapsed+secondMargin+max(0, elapsed/1000)
}

// kindName is how a message names a frame of kind k.
func kindName(k byte) string {
	switch k {
	case kindSecond:
		return "a second"
	case kindNotice:
		return "a notice"
	case kindDone:
		return "its end"
	case kindBeat:
		return "a beat"
	}
	return fmt.Sprintf("a %q frame", k)
}

// tooBig says what an agent sent past its bound, e.g. "sent a notice of
// 250.0 MB, more than the 25 KiB one may be".
func (e *oversizeError) tooBig() string {
	limit := units.Size(int64(e.limit))
	if e.limit >= 1<<10 && strings.HasSuffix(limit, " B") { // a bound computed from the plan: "3.7 MB", not "3703728 B"
		limit = units.Bytes(int64(e.limit))
	}
	return fmt.Sprintf("sent %s of %s, more than the %s one may be", kindName(e.kind), units.Bytes(int64(e.n)), limit)
}

// clip cuts text to at most n bytes on a rune boundary, saying so.
func clip(text string, n int) string {
	if len(text) <= n {
		return text
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(text[cut]) {
		cut--
	}
	return text[:cut] + fmt.Sprintf(" … (cut: %s in all)", units.Bytes(int64(len(text))))
}

// noticeGate keeps an agent's notices within noticesPerSecond and
// noticesPerRun and counts the rest; only the agent's reader uses it.
type noticeGate struct {
	sec   int // the second of the run inSec counts in
	inSec int
	kept  int
	left  int // notices not kept
}

// admit reports whether a notice arriving in second sec of the run is kept.
func (n *noticeGate) admit(sec int) bool {
	if sec != n.sec {
		n.sec, n.inSec = sec, 0
	}
	if n.kept >= noticesPerRun || n.inSec >= noticesPerSecond {
		n.left++
		return false
	}
	n.kept++
	n.inSec++
	return true
}
