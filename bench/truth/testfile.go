package main

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"
)

// SLO is what a capacity step must hold: a p95 limit and an error budget.
type SLO struct {
	P95    time.Duration
	Errors float64 // share of requests
}

// defaultSLO is the catalogue's: p95 ≤ 200 ms, errors ≤ 1 %.
var defaultSLO = SLO{P95: 200 * time.Millisecond, Errors: 0.01}

// ObserveTarget is one entry of a test's observe.targets.
type ObserveTarget struct {
	Name, URL, Preset string
	Labels            map[string]string
	Interval          time.Duration
	KubeDeployment    string // with the Kubernetes presets; "" with kube-state-metrics for the whole namespace
	Series            []string
}

// TestFile is a loadlens test the harness writes for one run.
type TestFile struct {
	Name         string
	BaseURL      string
	Load         Load
	SLO          SLO
	Targets      []ObserveTarget
	TracesListen string // host:port of loadlens's OTLP receiver; "" for none
}

// q quotes s for YAML (a double-quoted scalar reads Go's escapes).
func q(s string) string { return strconv.Quote(s) }

// seconds writes a duration as loadlens reads it, in whole milliseconds.
func seconds(d time.Duration) string { return strconv.FormatInt(d.Milliseconds(), 10) + "ms" }

// rate writes a rate with enough digits and no exponent.
func rate(r float64) string { return strconv.FormatFloat(r, 'f', -1, 64) }

// YAML renders the test.
func (t *TestFile) YAML() string {
	var b strings.Builder
	fmt.Fprintf(&b, "name: %s\nbase_url: %s\ntimeout: %s\n", t.Name, q(t.BaseURL), seconds(t.Load.Timeout))
	fmt.Fprintf(&b, "thresholds:\n  http_req_duration: [%s]\n  http_req_failed: [%s]\n",
		q("p(95) <= "+seconds(t.SLO.P95)), q("rate <= "+rate(t.SLO.Errors)))
	if len(t.Targets) > 0 || t.TracesListen != "" {
		b.WriteString("observe:\n  interval: 1s\n")
		if t.TracesListen != "" {
			fmt.Fprintf(&b, "  traces: {listen: %s}\n", q(t.TracesListen))
		}
		if len(t.Targets) > 0 {
			b.WriteString("  targets:\n")
		}
		for _, o := range t.Targets {
			writeTarget(&b, o)
		}
	}
	b.WriteString("scenarios:\n")
	for _, s := range t.Load.Scenarios {
		writeScenario(&b, s, t.Load)
	}
	return b.String()
}

func writeTarget(b *strings.Builder, o ObserveTarget) {
	fmt.Fprintf(b, "    - name: %s\n      url: %s\n", q(o.Name), q(o.URL))
	if o.Preset != "" {
		fmt.Fprintf(b, "      preset: %s\n", o.Preset)
	}
	if o.Interval > 0 {
		fmt.Fprintf(b, "      interval: %s\n", seconds(o.Interval))
	}
	if o.Preset == "cadvisor" || o.Preset == "kube-state-metrics" {
		fmt.Fprintf(b, "      kube: {namespace: %s", q(namespace))
		if o.KubeDeployment != "" {
			fmt.Fprintf(b, ", deployment: %s", q(o.KubeDeployment))
		}
		b.WriteString("}\n")
	}
	if len(o.Labels) > 0 {
		fmt.Fprintf(b, "      labels: {%s}\n", mapping(o.Labels))
	}
	if len(o.Series) > 0 {
		var qs []string
		for _, s := range o.Series {
			qs = append(qs, q(s))
		}
		fmt.Fprintf(b, "      series: [%s]\n", strings.Join(qs, ", "))
	}
}

func writeScenario(b *strings.Builder, s Scenario, l Load) {
	fmt.Fprintf(b, "  %s:\n    model: arrival-rate\n", s.Name)
	peak := l.Peak * s.Share
	if l.Ramp > 0 {
		fmt.Fprintf(b, "    start_rate: %s\n    stages:\n", rate(l.Start*s.Share))
		fmt.Fprintf(b, "      - {duration: %s, target: %s}\n", seconds(l.Ramp), rate(peak))
		if l.Hold > 0 {
			fmt.Fprintf(b, "      - {duration: %s, target: %s}\n", seconds(l.Hold), rate(peak))
		}
	} else {
		fmt.Fprintf(b, "    rate: %s\n    duration: %s\n", rate(peak), seconds(l.Hold))
	}
	e := s.Endpoint
	fmt.Fprintf(b, "    flow:\n      - %s: %s\n        name: %s\n", strings.ToLower(e.Method), q(e.Path), q(e.Route))
	if len(e.Query) > 0 {
		fmt.Fprintf(b, "        query: {%s}\n", mapping(e.Query))
	}
	if len(e.Headers) > 0 {
		fmt.Fprintf(b, "        headers: {%s}\n", mapping(e.Headers))
	}
}

// mapping writes a flow mapping's entries in key order.
func mapping(m map[string]string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, q(k)+": "+q(m[k]))
	}
	return strings.Join(parts, ", ")
}
