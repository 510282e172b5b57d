package report

import (
	"net/url"
	"strings"

	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/spans"
)

// Traces is what the report shows of the run's traces.
type Traces struct {
	UI         string            // the trace UI's URL template, with {trace_id}; "" for none
	Slowest    [][]spans.Kept    // per endpoint, its slowest sampled requests
	Failed     [][]spans.Kept    // per endpoint, its first failed requests
	Breakdowns []spans.Breakdown // per endpoint with joined traces, where the time went
	Stats      spans.Stats
}

// Link returns the trace UI's URL for a trace id; "" without a template.
// The id is hex, so it needs no escaping wherever the template puts it.
func (t *Traces) Link(id sample.TraceID) string {
	if t == nil || t.UI == "" {
		return ""
	}
	u := strings.ReplaceAll(t.UI, "{trace_id}", id.String())
	if p, err := url.Parse(u); err != nil || (p.Scheme != "http" && p.Scheme != "https") {
		return "" // a template from an edited run.db: never link a javascript: URL
	}
	return u
}

// Kept reports whether any trace id was kept.
func (t *Traces) Kept() bool {
	if t == nil {
		return false
	}
	for e := range t.Slowest {
		if len(t.Slowest[e]) > 0 || (e < len(t.Failed) && len(t.Failed[e]) > 0) {
			return true
		}
	}
	for _, f := range t.Failed {
		if len(f) > 0 {
			return true
		}
	}
	return len(t.Breakdowns) > 0
}

// keptJSON lists kept trace ids for summary.json.
func keptJSON(t *Traces, ks []spans.Kept) []map[string]any {
	out := []map[string]any{}
	for _, k := range ks {
		m := map[string]any{"trace_id": k.Trace.String(), "sampled": k.Sampled, "sec": k.Sec,
			"duration_ms": float64(k.Duration) / 1e6, "status": k.Status}
		if k.Err != "" {
			m["error"] = k.Err
		}
		if l := t.Link(k.Trace); l != "" {
			m["link"] = l
		}
		out = append(out, m)
	}
	return out
}

// sampledKept reports whether some kept request was sampled.
func (t *Traces) sampledKept() bool {
	for _, ks := range append(append([][]spans.Kept{}, t.Slowest...), t.Failed...) {
		for _, k := range ks {
			if k.Sampled {
				return true
			}
		}
	}
	return false
}
