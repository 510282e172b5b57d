package compare

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/loadlens/loadlens/internal/units"
)

// Gate is one --fail-on-regression rule, such as "p(95) +10%": the run
// fails the gate when p95 rose by more than 10 % against the baseline, and
// the rise is significant.
//
// Syntax: metric [{endpoint:"name"}] sign amount [unit].
//   - metric: p(50) or med, p(95), p(99); req/s (or rps, tps, http_reqs);
//     errors (or error_rate, http_req_failed); checks (or check_rate).
//   - sign: + fails on a rise, - on a fall.
//   - amount and unit: % is relative to the baseline; otherwise absolute:
//     a time for percentiles (us, µs, ms, s; a bare number is ms), req/s
//     (bare or /s) for throughput, percentage points (pp) for ratios.
type Gate struct {
	Expr     string  `json:"expr"`               // as written
	Metric   Metric  `json:"metric"`             // what is compared
	Endpoint string  `json:"endpoint,omitempty"` // the row; "" for all endpoints
	Sign     int     `json:"sign"`               // +1 fails on a rise, -1 on a fall
	Amount   float64 `json:"amount"`             // the allowed change: percent when Relative, else ms, req/s or a ratio
	Relative bool    `json:"relative"`           // Amount is a percentage of the baseline
}

// GateResult is one gate judged for one run against the baseline.
type GateResult struct {
	Gate   Gate   `json:"gate"`   // the gate judged
	Run    string `json:"run"`    // the run (or group of runs) judged
	Failed bool   `json:"failed"` // the run fails the gate
	// NotJudged is set when the gate's change could not be judged (too
	// few seconds, requests or runs; a baseline of failures; a disturbed
	// load generator): the gate fails unless the caller allows it.
	NotJudged bool   `json:"not_judged,omitempty"`
	Reason    string `json:"reason"` // what was observed and why it fails, passes or is not judged
}

// ParseGates parses every gate, reporting all the bad ones at once.
func ParseGates(exprs []string) ([]Gate, error) {
	var gates []Gate
	var errs []error
	for _, e := range exprs {
		g, err := ParseGate(e)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		gates = append(gates, g)
	}
	return gates, errors.Join(errs...)
}

// ParseGate parses one gate expression; see Gate for the syntax.
func ParseGate(expr string) (Gate, error) {
	g := Gate{Expr: expr}
	fail := func(format string, args ...any) (Gate, error) {
		return Gate{}, fmt.Errorf("gate %q: %s\n  (e.g. 'p(95) +10%%', 'req/s -5%%', 'errors +0.5pp', 'p(99){endpoint:\"GET /x\"} +50ms')",
			expr, fmt.Sprintf(format, args...))
	}
	s := strings.TrimSpace(expr)
	m, rest, ok := sessionGate(s) // names of more than one word, as the table shows them
	if ok {
		s = rest
	} else {
		name := s
		if i := strings.IndexAny(s, "{+- \t"); i >= 0 {
			name, s = s[:i], strings.TrimSpace(s[i:])
		} else {
			s = ""
		}
		if m, ok = gateMetric(name); !ok {
			return fail("unknown metric %q: use p(50), med, p(95), p(99), req/s, errors or checks; for session endpoints also %s", name, sessionGateNames())
		}
	}
	g.Metric = m
	if strings.HasPrefix(s, "{") {
		ep, rest, err := endpointFilter(s[1:])
		if err != nil {
			return fail("%v", err)
		}
		g.Endpoint, s = ep, strings.TrimSpace(rest)
	}
	switch {
	case strings.HasPrefix(s, "+"):
		g.Sign = 1
	case strings.HasPrefix(s, "-"):
		g.Sign = -1
	default:
		return fail("expected + (fail on a rise) or - (fail on a fall) after the metric, found %q", s)
	}
	s = strings.TrimSpace(s[1:])
	end := 0
	for end < len(s) && (s[end] >= '0' && s[end] <= '9' || s[end] == '.') {
		end++
	}
	amount, err := strconv.ParseFloat(s[:end], 64)
	if err != nil || math.IsInf(amount, 0) {
		return fail("expected the allowed change as a number after the sign, found %q", s)
	}
	unit := strings.TrimSpace(s[end:])
	if g.Amount, g.Relative, err = gateAmount(m, amount, unit); err != nil {
		return fail("%v", err)
	}
	return g, nil
}

// gateMetric maps a metric name of a gate to the compared figure.
func gateMetric(name string) (Metric, bool) {
	switch strings.ReplaceAll(strings.ToLower(name), " ", "") {
	case "p(50)", "med", "p50":
		return P50, true
	case "p(95)", "p95":
		return P95, true
	case "p(99)", "p99":
		return P99, true
	case "req/s", "rps", "tps", "http_reqs":
		return Succeeded, true // failures are not throughput: a dead target's fast errors must not hold a rate
	case "errors", "error_rate", "http_req_failed":
		return ErrorRate, true
	case "checks", "check_rate":
		return CheckRate, true
	}
	return 0, false
}

// endpointFilter reads `endpoint:"name"}` (the value quoted with " or ',
// or bare) and returns the name and what follows the closing brace.
func endpointFilter(s string) (name, rest string, err error) {
	key, val, ok := strings.Cut(s, ":")
	if !ok || strings.TrimSpace(key) != "endpoint" {
		return "", "", errors.New(`the only filter is {endpoint:"name"}`)
	}
	val = strings.TrimLeft(val, " \t")
	if val != "" && (val[0] == '"' || val[0] == '\'') {
		end := strings.IndexByte(val[1:], val[0])
		if end < 0 {
			return "", "", errors.New("the endpoint name's quote is not closed")
		}
		name, val = val[1:1+end], strings.TrimLeft(val[2+end:], " \t")
		if !strings.HasPrefix(val, "}") {
			return "", "", errors.New("the filter has no closing }")
		}
		rest = val[1:]
	} else {
		end := strings.IndexByte(val, '}')
		if end < 0 {
			return "", "", errors.New("the filter has no closing }")
		}
		name, rest = strings.TrimSpace(val[:end]), val[end+1:]
	}
	if name == "" {
		return "", "", errors.New("the endpoint filter is empty")
	}
	return name, rest, nil
}

// gateAmount converts the allowed change to the metric's unit.
func gateAmount(m Metric, amount float64, unit string) (float64, bool, error) {
	if unit == "%" {
		return amount, true, nil
	}
	switch m.Base() {
	case P50, P95, P99:
		switch unit {
		case "": // read as ms, +10 was taken for +10ms by a user who meant +10%
			return 0, false, fmt.Errorf("the change %v has no unit: write %v%% for a relative change or %vms for a time", amount, amount, amount)
		case "ms":
			return amount, false, nil
		case "s":
			return amount * 1000, false, nil
		case "us", "µs":
			return amount / 1000, false, nil
		}
		return 0, false, fmt.Errorf("unit %q is not %% or a time (us, ms, s)", unit)
	case TPS, Succeeded:
		if unit == "" { // as for a latency: -5 could mean 5 req/s or 5%
			return 0, false, fmt.Errorf("the change %v has no unit: write %v%% for a relative change or %v/s for a rate", amount, amount, amount)
		}
		if unit == "/s" || unit == m.Unit()+"/s" {
			return amount, false, nil
		}
		return 0, false, fmt.Errorf("unit %q is not %% or %s/s", unit, m.Unit())
	}
	if unit == "pp" {
		return amount / 100, false, nil
	}
	return 0, false, fmt.Errorf("a ratio changes by a relative %% or by percentage points (pp), not by %q", unit)
}

// String writes the gate as it was given.
func (g Gate) String() string { return g.Expr }

// Check judges every gate for every group against the baseline (see judge
// for when one fails). A gate whose figure is missing (no data, an unknown
// endpoint) fails: a gate that silently passes on a typo is no gate; the
// command refuses an unknown endpoint before (GateEndpoints). One
// that cannot judge its change is NotJudged (not testable, a baseline of
// failures, a load generator disturbed): AnyFailed counts it as failed
// unless allowed.
func (r *Report) Check(gates []Gate) []GateResult {
	var out []GateResult
	for _, g := range gates {
		line, err := r.line(g)
		for i := 1; i < len(r.Groups); i++ {
			res := GateResult{Gate: g, Run: r.groupName(i)}
			if err != nil {
				res.Failed, res.Reason = true, err.Error()
			} else {
				res.Failed, res.NotJudged, res.Reason = judge(g, line.Values[0], line.Values[i], r.hostLag(i))
				if why := r.medianMoved(g, line.Values[i], i); why != "" && !res.Failed && !res.NotJudged {
					res.NotJudged, res.Reason = true, "not judged: "+res.Reason+why
				}
				if why := r.endpointFailed(g, i); why != "" && !res.Failed {
					res.Failed, res.NotJudged, res.Reason = true, false, res.Reason+"; but "+why
				}
				if _, session := g.Metric.sessionName(); session {
					res.Reason = sessionWords(res.Reason, g.Metric) // its seconds count sessions (or messages), not requests
				}
			}
			if !r.Groups[i].Comparable {
				res.Reason += " (not at the baseline's load)"
			}
			out = append(out, res)
		}
	}
	return out
}

// groupName names a group in gate results: its run's name, or its letter
// and its runs' names.
func (r *Report) groupName(g int) string {
	runs := r.Groups[g].Runs
	if len(runs) == 1 {
		return r.Runs[runs[0]].Name
	}
	names := make([]string, len(runs))
	for k, i := range runs {
		names[k] = r.Runs[i].Name
	}
	return r.Groups[g].Name + " (" + strings.Join(names, ", ") + ")"
}

// AnyFailed reports whether any gate failed; a gate that could not be
// judged counts as failed unless allowNotJudged: a gate that passes what
// it cannot test is no gate.
func AnyFailed(results []GateResult, allowNotJudged bool) bool {
	return AnyRegressed(results) || !allowNotJudged && AnyNotJudged(results)
}

// AnyRegressed reports whether a gate found a regression: that is news
// whatever other gates could not judge.
func AnyRegressed(results []GateResult) bool {
	for _, res := range results {
		if res.Failed {
			return true
		}
	}
	return false
}

// AnyNotJudged reports whether a gate could not judge its change.
func AnyNotJudged(results []GateResult) bool {
	for _, res := range results {
		if res.NotJudged {
			return true
		}
	}
	return false
}

// line finds the line a gate judges.
func (r *Report) line(g Gate) (Line, error) {
	want, err := r.endpointKey(g.Endpoint)
	if err != nil {
		return Line{}, err
	}
	if want == "" || (len(r.Rows) == 1 && r.endpointNamed(want)) {
		want = allEndpoints
	}
	for _, row := range r.Rows {
		if row.Name != want {
			continue
		}
		for _, l := range row.Lines {
			if l.Metric == g.Metric {
				return l, nil
			}
		}
		return Line{}, fmt.Errorf("%s: no session step in %s of the compared runs (sse:, ws: or grpc:), so no %s to judge", g.Metric, want, g.Metric)
	}
	return Line{}, fmt.Errorf("no endpoint %q in the compared runs; its endpoints are: %s", g.Endpoint, r.endpointList())
}

// endpointKey is the endpoint a gate names, as the rows name it: the
// scenario-qualified "b · GET /b", or a plain "GET /b" that names one
// endpoint of one scenario; "" for all endpoints. A plain name two
// scenarios share is an error naming both.
func (r *Report) endpointKey(name string) (string, error) {
	if name == "" || name == allEndpoints || r.endpointNamed(name) {
		return name, nil
	}
	var found []string
	for _, k := range r.endpoints {
		if _, plain, ok := strings.Cut(k, scenarioSep); ok && plain == name {
			found = append(found, k)
		}
	}
	switch len(found) {
	case 0:
		return "", fmt.Errorf("no endpoint %q in the compared runs; its endpoints are: %s", name, r.endpointList())
	case 1:
		return found[0], nil
	}
	return "", fmt.Errorf("endpoint %q is in %d scenarios: name one of %s", name, len(found), quoteAll(found))
}

// scenarioSep joins a scenario's name and its endpoint's in a row's name
// when the runs have several scenarios.
const scenarioSep = " · "

// endpointList names every endpoint a gate may name, quoted as a gate
// takes them.
func (r *Report) endpointList() string {
	if len(r.endpoints) == 0 {
		return "none"
	}
	return quoteAll(r.endpoints)
}

// endpointNamed reports whether some run has an endpoint of that name.
func (r *Report) endpointNamed(name string) bool {
	for _, k := range r.endpoints {
		if k == name {
			return true
		}
	}
	return false
}

// quoteAll quotes each name as a gate takes it and lists them.
func quoteAll(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(n)
	}
	return strings.Join(q, ", ")
}

// judgeChange decides one gate on one value and says why: failed, not
// judged, or passed. A latency gate first asks whether the percentiles are latencies
// of answers (see answers). Then a gate fails on a change whose estimate
// goes past its limit and that the table calls significant, and on one
// that goes past its limit with its whole confidence interval. One the
// table holds back as within the runs' own noise is not judged, whatever
// its interval: the gate and the table give one judgement. A change
// that could not be tested is not judged, wherever it lies: the table
// calls it not testable, and a gate must not contradict it. Nor is a
// latency change that a load generator's extra wait could have made or
// hidden (see hostLag), unless its whole interval is past the limit.
func judgeChange(g Gate, base, v Value, host hostLag) (failed, notJudged bool, reason string) {
	if !base.Has || !v.Has {
		return true, false, fmt.Sprintf("%s: no data to compare in the baseline or this run", g.Metric)
	}
	if g.Metric.isLatency() {
		if failed, why := answers(g, base, v); why != "" {
			return failed, !failed, why
		}
	}
	sign := float64(g.Sign)
	change, allowed := ChangeText(g.Metric, v), gateLimitText(g)
	point, limit := *v.Delta, g.Amount
	ci, pct := v.CI, false
	switch {
	case g.Relative && v.DeltaPct != nil:
		point, ci, pct = *v.DeltaPct, v.CIPct, true
	case g.Relative:
		limit = 0 // from 0: any change is infinitely many percent
	default:
		change = absChangeText(g.Metric, *v.Delta)
	}
	if *v.Delta == 0 {
		change = "no change"
	}
	if g.Metric == Succeeded && g.Sign < 0 && base.Value > 0 && v.Value <= 0 {
		return true, false, fmt.Sprintf("%s fell from %s to 0: no request succeeded", g.Metric, units.Rate(base.Value, "req"))
	}
	if v.CI == nil {
		where := "is within"
		if sign*point > limit+1e-12 {
			where = "goes past"
		}
		return false, true, fmt.Sprintf("not judged: %s %s %s %s, but is not testable: %s%s", g.Metric, change, where, allowed, v.NotTested, longerText(v))
	}
	lagged := g.Metric.isLatency() && host.disturbs(g, base.Value)
	if sign*point <= limit+1e-12 {
		notJudged, reason = judgeWithin(g, base, v, host, lagged, pct, change, allowed, point, *ci, limit)
		return false, notJudged, reason
	}
	near := ci.Lo
	if sign < 0 {
		near = ci.Hi
	}
	interval := units.Interval(gateScaleText(g.Metric, pct, ci.Lo), gateScaleText(g.Metric, pct, ci.Hi))
	whole := sign*near > limit && atLeast(g.Metric, point, floor(g.Metric))
	if whole && !v.Significant {
		return false, true, heldBackText(g, v, host, lagged, change, interval, allowed)
	}
	if whole || worse(g, v) && !lagged {
		why := fmt.Sprintf("%s %s %s goes past %s", g.Metric, change, interval, allowed)
		if !whole {
			why += ", and the change is significant (its interval excludes no change)"
		}
		if lagged {
			why += "; " + host.sentence(g.Metric) + ", so rerun on a quiet host to tell the system's share"
		}
		return true, false, why
	}
	if lagged {
		return false, true, fmt.Sprintf("not judged: %s %s %s goes past %s, but its interval reaches back within it and %s: the wait may have moved it either way; run both on a quiet host%s",
			g.Metric, change, interval, allowed, host.sentence(g.Metric), widerThanLag(g, v, point, *ci, limit))
	}
	if pct && v.Drift > limit {
		return false, true, fmt.Sprintf("not judged: %s %s %s goes past %s, but its interval reaches back within it and the runs drifted: "+
			"a run's median latency moved %s from its first quarter to its last (a service still warming up, or filling up), "+
			"more than the limit; warm the service up before the measured hold, or hold it longer", g.Metric, change, interval, allowed,
			units.Percent(v.Drift/100))
	}
	if reach, wide := unresolvedPast(g, point, *ci, limit); wide {
		return false, true, unresolvedPastText(g, v, change, interval, allowed, pct, point, reach, limit)
	}
	return false, false, fmt.Sprintf("%s %s %s goes past %s, but its interval reaches back within it: not significantly past it", g.Metric, change, interval, allowed)
}

// heldBackText is the not judged verdict of a change whose whole interval
// is past the limit but that the table holds back as within the runs' own
// noise: a gate that failed it would call a regression the table, the
// HTML and the Markdown call no change (the trial's p50 "~ [+52.5%,
// +71.6%] < noise 202%" failed 'p(50) +10%'). Not judged fails unless
// allowed, as the table cannot tell it from the runs' own noise.
func heldBackText(g Gate, v Value, host hostLag, lagged bool, change, interval, allowed string) string {
	why := fmt.Sprintf("not judged: %s %s %s goes past %s with its whole interval, but the table holds it back as within the runs' own noise (%s)",
		g.Metric, change, interval, allowed, strings.TrimPrefix(ScaleText(g.Metric, v.MinEffect), "+"))
	if lagged || host.busier != 0 && g.Metric.isLatency() {
		return why + "; " + host.sentence(g.Metric) + ", so rerun both on a quiet host"
	}
	return why + " (how far either run's halves or stretches of seconds differ, or their generators' lag): runs that move this much by themselves cannot resolve it; hold longer, warm the service up first, or run both on a quiet host"
}

// judgeWithin says why a change whose point estimate is within the gate's
// limit passes, or is not judged: its interval too wide to tell, or the
// baseline's host lagged behind (lagged) while this run's did not, by
// enough to hide a rise past the limit (canHideRise).
func judgeWithin(g Gate, base, v Value, host hostLag, lagged, pct bool, change, allowed string, point float64, ci Interval, limit float64) (notJudged bool, reason string) {
	waited := lagged
	lagged = lagged && (host.busier > 0 || host.canHideRise(g, base, v))
	defer func() {
		if waited && !lagged && !notJudged {
			reason += "; " + host.sentence(g.Metric) + ", but that wait taken out of the baseline's figure leaves it within the limit too"
		}
	}()
	// an interval too wide stays too wide on a quiet host: more data is the remedy named first
	if far, wide := unresolved(g, point, ci, limit); wide {
		why := unresolvedText(g, v, change, allowed, pct, point, far, limit)
		if lagged && host.busier < 0 {
			why += "; besides, " + host.sentence(g.Metric)
		}
		return true, why
	}
	if lagged && host.busier < 0 {
		return true, fmt.Sprintf("not judged: %s %s is within %s, but %s: the wait in the baseline's latencies can hide a rise; run both on a quiet host",
			g.Metric, change, allowed, host.sentence(g.Metric))
	}
	return false, fmt.Sprintf("%s %s is within %s", g.Metric, change, allowed)
}

// judge decides one gate on one value and says why (see judgeChange),
// then distrusts a latency verdict one side's stolen CPU could have made
// (see stealVerdict).
func judge(g Gate, base, v Value, host hostLag) (failed, notJudged bool, reason string) {
	failed, notJudged, reason = judgeChange(g, base, v, host)
	if notJudged || !g.Metric.isLatency() {
		return failed, notJudged, reason
	}
	if dead, why := answers(g, base, v); dead || why != "" {
		return failed, notJudged, reason // failures are counted, not timed: no pause makes them
	}
	if why := stealVerdict(g, host, failed, reason); why != "" {
		return false, true, why
	}
	return failed, notJudged, reason
}

// stealVerdict is why a latency verdict is not judged when one side's host
// lost much more CPU to the hypervisor, or "": a failure the stolen run's
// pauses push toward, or a pass the stolen baseline's pauses could have
// bought by slowing the baseline. The pauses stall the service's timers
// too when it shares the host, so no bound on their effect holds, not
// even a whole interval past the limit.
func stealVerdict(g Gate, host hostLag, failed bool, verdict string) string {
	switch moves := host.stealMoves(g); {
	case moves > 0 && failed:
		return fmt.Sprintf("not judged: %s; but %s: the hypervisor's pauses may have made the change; run both when the host is quiet",
			verdict, host.stealSentence())
	case moves < 0 && !failed:
		return fmt.Sprintf("not judged: %s; but %s: the pauses in the baseline's latencies can hide a change; run both when the host is quiet",
			verdict, host.stealSentence())
	}
	return ""
}

// worse reports whether the table calls the change significant and in the
// direction the gate fails on: a change whose best estimate is past the
// limit fails when it is surely a change, though its interval may reach
// back within the limit (a 20 % rise judged against 'p(95) +10%' on a run
// whose interval is ±12 % is a regression the gate exists to catch).
func worse(g Gate, v Value) bool {
	if !v.Significant || v.Delta == nil {
		return false
	}
	return float64(g.Sign)**v.Delta > 0
}

// longerText says how long a hold would let a change that was not tested
// be judged, or "" when more seconds would not (more runs would).
func longerText(v Value) string {
	if v.NeedSeconds <= 0 {
		return ""
	}
	return fmt.Sprintf("; a hold of %s or more at this load (%s a run) would let it judge",
		units.CountOf(int64(HoldFor(v.NeedSeconds)), "second", "seconds"), units.CountOf(int64(v.NeedSeconds), "compared second", "compared seconds"))
}

// HoldFor is the shortest hold, in seconds, that leaves n compared
// seconds once its warm-up is left out (see WarmUp): a hold of d seconds
// compares its seconds WarmUp(d) … d − 1.
func HoldFor(n int) int {
	d := n + 1
	for d-WarmUp(d) < n { // bounded: WarmUp is at most 10
		d++
	}
	return d
}

// gateScaleText writes a limit of an interval in percent or in the
// metric's unit.
func gateScaleText(m Metric, pct bool, x float64) string {
	if pct {
		return units.Change(x / 100)
	}
	return absChangeText(m, x)
}

// gateLimitText writes the allowed change of a gate.
func gateLimitText(g Gate) string {
	sign := "+"
	if g.Sign < 0 {
		sign = "-"
	}
	switch {
	case g.Relative:
		return sign + strconv.FormatFloat(g.Amount, 'f', -1, 64) + "%"
	case g.Metric.isRatio():
		return sign + strconv.FormatFloat(100*g.Amount, 'f', -1, 64) + "pp"
	case g.Metric.Base() == TPS:
		return sign + strconv.FormatFloat(g.Amount, 'f', -1, 64) + " " + g.Metric.Unit() + "/s"
	}
	return sign + strconv.FormatFloat(g.Amount, 'f', -1, 64) + "ms"
}
