package app

import (
	"encoding/json"
	"fmt"

	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/units"
)

// httpVersionsKey is the run.db meta key of each endpoint's responses by
// HTTP version (http2 scenarios only), so a rebuilt summary.json keeps them.
const httpVersionsKey = "http_versions"

// encodeHTTPVersions writes the counts for run.db; "" when none was kept.
func encodeHTTPVersions(v []sample.HTTPVersions) string {
	for _, c := range v {
		if c.Any() {
			b, err := json.Marshal(v)
			if err != nil {
				return "" // cannot happen: integers only
			}
			return string(b)
		}
	}
	return ""
}

// decodeHTTPVersions reads them back; nil when the run kept none.
func decodeHTTPVersions(enc string) ([]sample.HTTPVersions, error) {
	if enc == "" {
		return nil, nil
	}
	var v []sample.HTTPVersions
	if err := json.Unmarshal([]byte(enc), &v); err != nil {
		return nil, err
	}
	return v, nil
}

// httpVersionNotes warns, per scenario with http2: true, when responses
// came over HTTP/1.1: net/http falls back without a word when the server's
// ALPN offers no h2 (and plain http:// is always HTTP/1.1), and a run that
// asked for HTTP/2 must not pass HTTP/1.1's figures off as HTTP/2's.
func httpVersionNotes(p *plan.Plan, v []sample.HTTPVersions) []string {
	var out []string
	for _, s := range p.Scenarios {
		if !s.HTTP2 {
			continue
		}
		var sum sample.HTTPVersions
		for i, ep := range p.Layout.Endpoints {
			if ep.Scenario == s.ID && i < len(v) {
				sum.HTTP1 += v[i].HTTP1
				sum.HTTP2 += v[i].HTTP2
			}
		}
		if sum.HTTP1 == 0 {
			continue
		}
		all := sum.HTTP1 + sum.HTTP2
		out = append(out, fmt.Sprintf("HTTP/2 was asked for (http2: true) but not negotiated: %s of scenario %s's %s were "+
			"answered over HTTP/1.1, so their figures are HTTP/1.1's; the server offered no h2 in TLS's ALPN (nginx: http2 on its ssl listen), "+
			"or the URL was plain http://, which is always HTTP/1.1", units.Count(sum.HTTP1), s.Name, units.CountOf(all, "response", "responses")))
	}
	return out
}
