package capacityrun

import (
	"strings"
	"testing"

	"github.com/loadlens/loadlens/internal/diagnose"
)

// TestAStepsDiagnosisGuardsIt: every busy-host signal the generator
// findings read (docs/findings.md, "The generator or its host") makes the
// step's diagnosis distrust it; drops alone (the VU ceiling, judged apart)
// and findings about the target do not.
func TestAStepsDiagnosisGuardsIt(t *testing.T) {
	const gen = `{role="generator",target="loadlens"}`
	finding := func(kind string, sources ...string) diagnose.Finding {
		f := diagnose.Finding{Kind: kind, Parts: diagnose.Words(kind + " title")}
		for _, s := range sources {
			f.Figures = append(f.Figures, diagnose.Figure{Source: s})
		}
		return f
	}
	tests := []struct {
		name     string
		findings []diagnose.Finding
		want     string // the title kept; "" for none
	}{
		{"the host busy", []diagnose.Finding{finding(diagnose.KindHostBusy, diagnose.HostCPU+gen)}, "generator-host-busy title"},
		{"its wait for a CPU", []diagnose.Finding{finding(diagnose.KindGeneratorBound, diagnose.GeneratorCPUWait+gen)}, "generator-bound title"},
		{"its scheduling latency", []diagnose.Finding{finding(diagnose.KindGeneratorBound, diagnose.GeneratorStall+gen)}, "generator-bound title"},
		{"the scheduler's lag", []diagnose.Finding{finding(diagnose.KindGeneratorBound, diagnose.SrcLag)}, "generator-bound title"},
		{"its CPU share", []diagnose.Finding{finding(diagnose.KindGeneratorBound, diagnose.GeneratorCPU+gen+" / "+diagnose.GeneratorCapacity+gen)}, "generator-bound title"},
		{"a pool held by its CPU", []diagnose.Finding{finding(diagnose.KindGeneratorBound, diagnose.SrcDropped, diagnose.GeneratorPoolHeld+`{reason="generator_cpu",scenario="s"}`)}, "generator-bound title"},
		{"drops at max_vus", []diagnose.Finding{finding(diagnose.KindGeneratorBound, diagnose.SrcDropped, diagnose.SrcVUsMax, diagnose.GeneratorPoolHeld+`{reason="max_vus",scenario="s"}`)}, ""},
		{"the target saturated", []diagnose.Finding{finding(diagnose.KindSaturation, diagnose.SrcRequests)}, ""},
		{"the first that does", []diagnose.Finding{finding(diagnose.KindSaturation), finding(diagnose.KindHostBusy)}, "generator-host-busy title"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := distrusted(tc.findings); !strings.Contains(got, tc.want) || (tc.want == "") != (got == "") {
				t.Fatalf("distrusted: %q, want %q", got, tc.want)
			}
		})
	}
}

// TestRequestsPerIterationOfTheMix: a step's iterations/s times the plan's
// requests per iteration, at the mix the search keeps, is its requests/s.
func TestRequestsPerIterationOfTheMix(t *testing.T) {
	tests := []struct {
		name, scenarios string
		want            float64
	}{
		{"one request", "  s:\n    rate: 10\n    duration: 1s\n    flow:\n      - get: /a\n", 1},
		{"two requests and a pause", "  s:\n    rate: 10\n    duration: 1s\n    flow:\n      - get: /a\n      - think: 1ms\n      - get: /b\n", 2},
		{"30/s of one and 10/s of three", "  a:\n    rate: 30\n    duration: 1s\n    flow:\n      - get: /a\n" +
			"  b:\n    rate: 10\n    duration: 1s\n    flow:\n      - get: /a\n      - get: /b\n      - get: /c\n", 1.5},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := parseTest(t, "base_url: http://127.0.0.1:1\nthresholds:\n  http_req_failed: [\"rate < 0.01\"]\nscenarios:\n"+tc.scenarios)
			if got := p.RequestsPerIteration(); got != tc.want {
				t.Fatalf("%v requests per iteration, want %v", got, tc.want)
			}
		})
	}
}
