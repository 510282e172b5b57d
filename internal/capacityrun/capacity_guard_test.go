package capacityrun

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loadlens/loadlens/internal/app"
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
	follows := func(f diagnose.Finding) diagnose.Finding { f.FollowsTarget = true; return f }
	warning := func(f diagnose.Finding) diagnose.Finding { f.Severity = diagnose.Warning; return f }
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
		{"its wait, following the target's 503s", []diagnose.Finding{finding(diagnose.KindErrorsAtLoad, diagnose.SrcFailed),
			follows(finding(diagnose.KindGeneratorBound, diagnose.GeneratorCPUWait+gen))}, ""},
		{"the host busy, its lag under a tenth of every latency (a warning)", []diagnose.Finding{warning(finding(diagnose.KindHostBusy, diagnose.HostCPU+gen))}, ""},
		{"the host busy, following the target's errors", []diagnose.Finding{follows(finding(diagnose.KindHostBusy, diagnose.HostCPU+gen))}, ""},
		{"one follows, the next does not", []diagnose.Finding{follows(finding(diagnose.KindHostBusy, diagnose.HostCPU+gen)),
			finding(diagnose.KindGeneratorBound, diagnose.SrcLag)}, "generator-bound title"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := distrusted(tc.findings); !strings.Contains(got, tc.want) || (tc.want == "") != (got == "") {
				t.Fatalf("distrusted: %q, want %q", got, tc.want)
			}
		})
	}
}

// TestRecordedStepsGuard reads runs recorded on busy hosts back as a step
// is read (app.LoadRun: the run's own diagnosis) and checks which of them
// the search may judge. Those whose generator findings follow the target's
// own errors are judged: 68 % 503s beside a generator whose threads waited
// for a CPU 6.67× as long as they ran were retried before (issue 20), and
// the search could not set a boundary below them.
func TestRecordedStepsGuard(t *testing.T) {
	tests := []struct {
		db   string // in internal/diagnose/testdata/corpus
		want string // the title kept; "" for a step the search judges
	}{
		{"trial4-case3-busy-db", ""},  // 68.38 % http_5xx, threads waited 6.67× their run time
		{"trial34-naive", ""},         // 99.33 % http_5xx, lag p99 up to 1.87 s, drops held by loadlens's CPU
		{"demo-race", ""},             // 29.24 % http_4xx, lag p99 up to 58 ms
		{"truthapp-faults", "waited"}, // threads waited 16× their run time, the target's answers fine
		{"demo-pool", ""},             // lag p99 up to 104 ms at 0:01–0:03, then its own pool's queue: p95 2 s, 19× the lag (issue 20)
		{"poolbusy-host", ""},         // a pool of 2 at twice its rate, two CPU hogs: lag p99 up to 239 ms, p95 to 5.1 s
		{"trial2-road2", "late"},      // VUs ready 1.91 s late, a catch-up burst, p95 23 ms afterwards
		{"demo-healthy", ""},
	}
	for _, tc := range tests {
		t.Run(tc.db, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join("..", "diagnose", "testdata", "corpus", tc.db+".db"))
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(t.TempDir(), "run.db") // a copy: reading may touch the file
			if err := os.WriteFile(path, b, 0o600); err != nil {
				t.Fatal(err)
			}
			in, err := app.LoadRun(path)
			if err != nil {
				t.Fatal(err)
			}
			if got := distrusted(in.Findings); !strings.Contains(got, tc.want) || (tc.want == "") != (got == "") {
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
