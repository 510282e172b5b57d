package report

import (
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/loadlens/loadlens/internal/estimate"
	"github.com/loadlens/loadlens/internal/units"
)

// The starter test's defaults: a ramp long enough for caches and pools to
// warm, and a hold long enough to see drift (case study 1 held 10 minutes).
const (
	defaultRamp        = time.Minute
	defaultHold        = 10 * time.Minute
	defaultLatencyGoal = time.Second
	defaultMaxErrors   = 0.01
)

// WriteEstimateTest writes a starter test file for r's target: an open-model ramp
// from 0 to the target rate, a hold at it, one GET of path on baseURL with
// a status check, and thresholds on p95 and the error rate. It is a
// starting point to edit, and it parses as it is. name is the test's name
// ("estimate" when empty): runs' history groups by it, so each starter file
// is named for itself.
func WriteEstimateTest(w io.Writer, r estimate.Result, name, baseURL, path string) error {
	if err := checkBaseURL(baseURL); err != nil {
		return err
	}
	if !strings.HasPrefix(path, "/") {
		return fmt.Errorf("estimate: the path %q must start with /", path)
	}
	if r.TargetRPS <= 0 {
		return fmt.Errorf("estimate: no target rate to write a test for")
	}
	in := r.Input
	ramp, hold, goal, maxErr := orDefault(in.Ramp, defaultRamp), orDefault(in.Hold, defaultHold), orDefault(in.LatencyGoal, defaultLatencyGoal), in.MaxErrors
	if maxErr == 0 {
		maxErr = defaultMaxErrors
	}
	target := strconv.FormatFloat(r.TargetRPS, 'f', -1, 64)
	var b strings.Builder
	b.WriteString("# Written by loadlens estimate:\n")
	for _, s := range r.Steps {
		line := fmt.Sprintf("%s: %s = %s %s", s.Label, s.Formula, units.Number(s.Value), s.Unit)
		b.WriteString("#   " + strings.Join(strings.Fields(line), " ") + "\n") // one line, whatever the input held
	}
	b.WriteString("# Ramp up to the target rate, then hold it. Edit the flow to match real users.\n")
	if name == "" {
		name = "estimate"
	}
	if !plainName.MatchString(name) {
		name = yamlQuote(name)
	}
	fmt.Fprintf(&b, "name: %s\n", name)
	fmt.Fprintf(&b, "base_url: %s\n", yamlQuote(baseURL))
	b.WriteString("thresholds:\n")
	fmt.Fprintf(&b, "  http_req_duration: [%s]\n", yamlQuote("p(95) < "+units.DurationLiteral(goal)))
	fmt.Fprintf(&b, "  http_req_failed: [%s]\n", yamlQuote("rate < "+strconv.FormatFloat(maxErr, 'f', -1, 64)))
	b.WriteString("scenarios:\n  load:\n    model: arrival-rate\n    start_rate: 0\n    stages:\n")
	if ramp > 0 {
		fmt.Fprintf(&b, "      - {duration: %s, target: %s}   # ramp up\n", units.DurationLiteral(ramp), target)
	}
	fmt.Fprintf(&b, "      - {duration: %s, target: %s}   # hold\n", units.DurationLiteral(hold), target)
	if r.VUs > 0 {
		fmt.Fprintf(&b, "    pre_allocated_vus: %d   # Little's law for the target; max_vus keeps its default\n", r.VUs)
	}
	b.WriteString("    flow:\n")
	fmt.Fprintf(&b, "      - get: %s\n", yamlQuote(path))
	b.WriteString("        check:\n          - status: 200\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// checkBaseURL accepts what a test file's base_url accepts: http or https,
// a host, no query.
func checkBaseURL(s string) error {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return fmt.Errorf("estimate: base URL %q is not an http:// or https:// URL with a host and no query", s)
	}
	return nil
}

// yamlQuote writes s as a YAML double-quoted scalar (JSON escapes are YAML's).
func yamlQuote(s string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return strings.TrimSpace(b.String())
}

// plainName is a name YAML reads as itself unquoted.
var plainName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

// orDefault returns d, or def when d is 0.
func orDefault(d, def time.Duration) time.Duration {
	if d == 0 {
		return def
	}
	return d
}
