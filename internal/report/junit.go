package report

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"strconv"
	"strings"

	"github.com/loadlens/loadlens/internal/history"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/units"
)

// The JUnit XML elements CI systems read (GitLab, Jenkins, GitHub test
// reporters): suites of test cases, failed ones with a <failure>.
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name       string          `xml:"name,attr"`
	Tests      int             `xml:"tests,attr"`
	Failures   int             `xml:"failures,attr"`
	Skipped    int             `xml:"skipped,attr"`
	Time       string          `xml:"time,attr"`
	Timestamp  string          `xml:"timestamp,attr"`
	Properties []junitProperty `xml:"properties>property"`
	Cases      []junitCase     `xml:"testcase"`
	SystemOut  string          `xml:"system-out,omitempty"` // what a reader must know about the figures
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	Class   string        `xml:"classname,attr"`
	Name    string        `xml:"name,attr"`
	Time    string        `xml:"time,attr"`
	Failure *junitOutcome `xml:"failure"`
	Skipped *junitOutcome `xml:"skipped"`
	Output  string        `xml:"system-out,omitempty"`
}

// gated reports whether a failed threshold on checks selects check c: only
// then is its failure the run's, as k6's verdict has it.
func gated(in *Input, c sample.CheckInfo) bool {
	r := in.Run
	for i, res := range in.Results {
		if res.Pass || i >= len(in.Thresholds) || in.Thresholds[i].Metric != "checks" {
			continue
		}
		selects := true
		for _, f := range in.Thresholds[i].Filter {
			switch f.Key {
			case "check":
				selects = selects && f.Value == c.Name
			case "scenario":
				selects = selects && int(c.Scenario) < len(r.Layout.Scenarios) && r.Layout.Scenarios[c.Scenario].Name == f.Value
			case "endpoint":
				selects = selects && int(c.Endpoint) < len(r.Layout.Endpoints) && r.Layout.Endpoints[c.Endpoint].Name == f.Value
			}
		}
		if selects {
			return true
		}
	}
	return false
}

type junitOutcome struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr,omitempty"`
	Text    string `xml:",chardata"`
}

// JUnit renders the run as JUnit XML: one test case per threshold (suite
// "thresholds") and per check (suite "checks"), failures carrying the
// observed value, or why it failed without one (no data, no completed
// request), as in the verdict.
func JUnit(in *Input) ([]byte, error) {
	secs := fmt.Sprintf("%.3f", in.Run.Elapsed().Seconds())
	props := []junitProperty{{"run", in.Name}, {"status", in.Status}, {"verdict", Verdict(in)}, {"loadlens", in.Version},
		{"interrupted", strconv.FormatInt(in.Interrupted(), 10)}, {"truncated_bodies", strconv.FormatInt(in.Truncated(), 10)}}
	if in.Dir != "" {
		props = append(props, junitProperty{"dir", in.Dir})
	}
	stamp := in.Start.Format("2006-01-02T15:04:05Z07:00")
	th := junitSuite{Name: "thresholds", Time: secs, Timestamp: stamp, Properties: props, SystemOut: strings.Join(Accounting(in), "\n")}
	for i, res := range in.Results {
		t := &in.Thresholds[i]
		c := junitCase{Class: in.Name + ".thresholds", Name: res.Key + ": " + res.Expr, Time: "0"}
		obs := Observed(t, res)
		switch {
		case !res.Pass && res.Reason != "":
			text := fmt.Sprintf("%s %s failed: %s: nothing it could judge shows the target met it", res.Key, res.Expr, res.Reason)
			if res.Aborted {
				text += "; it stopped the run (abort_on_fail)"
			}
			c.Failure = &junitOutcome{Message: res.Reason, Type: "threshold", Text: text}
			th.Failures++
		case !res.Pass:
			text := fmt.Sprintf("%s %s failed: observed %s", res.Key, res.Expr, obs)
			if res.Aborted {
				text += "; it stopped the run (abort_on_fail)"
			}
			c.Failure = &junitOutcome{Message: "observed " + obs, Type: "threshold", Text: text}
			th.Failures++
		}
		th.Cases = append(th.Cases, c)
	}
	// thresholds that all passed on a run in which no request succeeded:
	// CI must still read a failure, and why
	if why := in.GateNote(); why != "" && th.Failures == 0 {
		th.Cases = append(th.Cases, junitCase{Class: in.Name + ".thresholds", Name: "no " + runUnit(in.Run).Or().One + " succeeded", Time: "0",
			Failure: &junitOutcome{Message: why, Type: "gate", Text: "FAIL: " + why}})
		th.Failures++
	}
	if c, ok := junitRunCase(in); ok && th.Failures == 0 {
		th.Cases = append(th.Cases, c)
		th.Failures++
	}
	th.Tests = len(th.Cases)

	ck := junitChecks(in, junitSuite{Name: "checks", Time: secs, Timestamp: stamp, Properties: props})

	out := junitSuites{Name: "loadlens: " + in.Name, Time: secs, Suites: []junitSuite{th, ck}}
	for _, s := range out.Suites {
		out.Tests += s.Tests
		out.Failures += s.Failures
		out.Skipped += s.Skipped
	}
	var b bytes.Buffer
	b.WriteString(xml.Header)
	enc := xml.NewEncoder(&b)
	enc.Indent("", "  ")
	if err := enc.Encode(out); err != nil {
		return nil, fmt.Errorf("junit: %w", err)
	}
	b.WriteString("\n")
	return b.Bytes(), nil
}

// junitRunCase is a failing case for a run whose verdict or exit code
// fails without a failed threshold to say so: interrupted, incomplete (a
// killed run read back), failed, partial, or an output not written. CI
// once read such runs as green (tests="2" failures="0" after Ctrl-C).
func junitRunCase(in *Input) (junitCase, bool) {
	v := Verdict(in)
	_, stopped := verdictHow[v]
	if !stopped && in.ExitCode == 0 {
		return junitCase{}, false
	}
	msg := v + ": " + howItEnded(in, v)
	if !stopped {
		msg = "an output could not be written"
	}
	if in.ExitCode != 0 && in.ExitCode != history.NoExitCode {
		msg += fmt.Sprintf(" (the run's exit code: %d)", in.ExitCode)
	}
	return junitCase{Class: in.Name + ".run", Name: "the run ran to its end and kept its results", Time: "0",
		Failure: &junitOutcome{Message: msg, Type: "run", Text: "FAIL: " + msg}}, true
}

// junitChecks fills suite ck with a case per check: a failure when a failed
// threshold gates it, skipped when it never ran.
func junitChecks(in *Input, ck junitSuite) junitSuite {
	r := in.Run
	for i, c := range r.Checks {
		info := r.Layout.Checks[i]
		name := info.Name
		if ep := int(info.Endpoint); ep >= 0 && ep < len(r.Layout.Endpoints) {
			name += " (" + endpointLabel(r, ep) + ")"
		}
		tc := junitCase{Class: in.Name + ".checks." + r.Layout.Scenarios[info.Scenario].Name, Name: name, Time: "0"}
		if c.Passes+c.Fails == 0 { // never evaluated: no pass to report
			tc.Skipped = &junitOutcome{Message: "never ran: its step never reached this check", Type: "check"}
			ck.Skipped++
		}
		if c.Fails > 0 {
			msg := fmt.Sprintf("%s of %s failed (%s passed)", units.Count(c.Fails), units.Count(c.Passes+c.Fails), units.Percent(ratio(c.Passes, c.Passes+c.Fails)))
			if gated(in, info) { // a failed check fails CI only as its threshold fails the verdict
				tc.Failure = &junitOutcome{Message: msg, Type: "check", Text: "check " + strings.TrimSpace(name) + ": " + msg}
				ck.Failures++
			} else {
				tc.Output = "check " + strings.TrimSpace(name) + ": " + msg + "; no failed threshold judges it, so it fails nothing"
			}
		}
		ck.Cases = append(ck.Cases, tc)
	}
	ck.Tests = len(ck.Cases)
	return ck
}
