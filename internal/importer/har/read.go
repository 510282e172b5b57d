package har

import (
	"encoding/base64"
	"errors"
	"fmt"
	"net/url"
	"time"

	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/units"
)

// What an import keeps of a recording, whatever its size.
const (
	maxKeptResponse  = 1 << 20              // bytes of one response searched for values to correlate
	maxKeptResponses = 64 << 20             // and of all the responses kept
	maxKeptRequests  = 4 * plan.MaxFileSize // bytes of the requests kept: more could not make one test
)

// reading takes a recording's entries as they are read: it leaves out what
// the test will not send, and stops keeping at the limits, counting.
type reading struct {
	opt        Options
	lv         *leaver
	kept       []*entry
	total      int   // entries read
	reqBytes   int64 // of the requests kept
	respBytes  int64 // of the responses' text kept
	over       int64 // requests read past a limit, left out
	overWhy    string
	unsearched int64 // responses too large to search for values
}

// take keeps or leaves out one entry.
func (rd *reading) take(e *entry) error {
	rd.total++
	u, err := url.Parse(e.Request.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		rd.lv.leave("request that is not http(s)", "requests that are not http(s)")
		return nil
	}
	e.url = u
	e.end = e.Started.Add(time.Duration(e.Time * float64(time.Millisecond)))
	e.static = isStatic(e)
	if e.static && !rd.opt.KeepStatic {
		rd.lv.leave("static asset (images, styles, scripts, fonts, media; --keep-static keeps them)",
			"static assets (images, styles, scripts, fonts, media; --keep-static keeps them)")
		return nil
	}
	size := requestSize(e)
	switch {
	case len(rd.kept) >= rd.opt.MaxEntries:
		rd.cut(fmt.Sprintf("after the first %s (--max-entries reads more)", units.Count(int64(rd.opt.MaxEntries))))
		return nil
	case rd.reqBytes+size > maxKeptRequests:
		rd.cut(fmt.Sprintf("after the first %s, which are %s already, more than a test file of %s holds",
			units.Count(int64(len(rd.kept))), units.Bytes(rd.reqBytes), units.Size(plan.MaxFileSize)))
		return nil
	}
	rd.reqBytes += size
	text := responseText(e)
	if len(text) > maxKeptResponse || rd.respBytes+int64(len(text)) > maxKeptResponses {
		text = ""
		rd.unsearched++
	}
	e.text, e.Response.Content.Text = text, "" // the decoded text only, and only when searched
	rd.respBytes += int64(len(text))
	rd.kept = append(rd.kept, e)
	return nil
}

// cut counts a request left out past a limit, said by why.
func (rd *reading) cut(why string) {
	if rd.over == 0 {
		rd.overWhy = why
	}
	rd.over++
}

// cuts are the notes on what the limits left out; err is errCut when the
// recording was read only to MaxRecording.
func (rd *reading) cuts(err error) []string {
	var out []string
	if errors.Is(err, errCut) {
		out = append(out, fmt.Sprintf("the recording past its first %s (an import reads at most that): %s read, the rest left out",
			units.Size(rd.opt.MaxBytes), units.CountOf(int64(rd.total), "entry", "entries")))
	}
	if rd.over > 0 {
		out = append(out, units.CountOf(rd.over, "request", "requests")+" "+rd.overWhy)
	}
	if rd.unsearched > 0 {
		out = append(out, fmt.Sprintf("values in %s were not looked for (one may be %s, all %s): none of them is correlated",
			units.CountOf(rd.unsearched, "response", "responses"), units.Size(maxKeptResponse), units.Size(maxKeptResponses)))
	}
	return out
}

// requestSize is about the bytes an entry's request takes in a test.
func requestSize(e *entry) int64 {
	n := int64(len(e.Request.URL) + len(e.Request.Method) + 64)
	for _, h := range e.Request.Headers {
		n += int64(len(h.Name) + len(h.Value) + 8)
	}
	for _, c := range e.Request.Cookies {
		n += int64(len(c.Name) + len(c.Value) + 2)
	}
	if pd := e.Request.PostData; pd != nil {
		n += int64(len(pd.Text))
		for _, p := range pd.Params {
			n += int64(len(p.Name) + len(p.Value) + 2)
		}
	}
	return n
}

// responseText is a response's body as text.
func responseText(e *entry) string {
	c := e.Response.Content
	if c.Encoding == "base64" {
		b, err := base64.StdEncoding.DecodeString(c.Text)
		if err != nil {
			return ""
		}
		return string(b)
	}
	return c.Text
}

// leaver counts the entries left out, by reason, in the order the reasons
// first came up.
type leaver struct {
	counts map[string]int64
	order  []string
	ones   map[string]string // each reason's words for one entry
}

func (lv *leaver) leave(one, many string) {
	if lv.counts == nil {
		lv.counts, lv.ones = map[string]int64{}, map[string]string{}
	}
	if lv.counts[many] == 0 {
		lv.order = append(lv.order, many)
		lv.ones[many] = one
	}
	lv.counts[many]++
}

// notes are the counts, one line each.
func (lv *leaver) notes() []string {
	var out []string
	for _, why := range lv.order {
		out = append(out, units.CountOf(lv.counts[why], lv.ones[why], why))
	}
	return out
}
