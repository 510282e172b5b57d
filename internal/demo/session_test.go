package demo_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/loadlens/loadlens/internal/demo"
	"github.com/loadlens/loadlens/internal/plan"
)

const shopURL = "http://127.0.0.1:45678"

// TestSessionTestsParse parses the embedded tests as `loadlens demo` will,
// and checks that each names what the session's Fixes point at.
func TestSessionTestsParse(t *testing.T) {
	s := demo.ScriptedSession()
	if s.Header != demo.VariantHeader || len(s.Runs) != 2 || s.Runs[0].Variant != demo.Naive || s.Runs[1].Variant != demo.Improved {
		t.Fatalf("session %+v: want the naive run, then the improved one, told apart by %s", s, demo.VariantHeader)
	}
	for _, run := range s.Runs {
		t.Run(run.File, func(t *testing.T) {
			p, err := plan.Parse(run.File, run.Test(shopURL), nil)
			if err != nil {
				t.Fatalf("the embedded test does not parse: %v", err)
			}
			if p.Name != run.Name || p.BaseURL != shopURL {
				t.Errorf("name %q, base_url %q; want %q and %q", p.Name, p.BaseURL, run.Name, shopURL)
			}
			if len(p.Observe.Targets) != 1 || p.Observe.Targets[0].URL != shopURL+"/metrics" || p.Observe.Targets[0].Preset != "go" {
				t.Errorf("observe %+v; want the shop's own /metrics with the go preset", p.Observe)
			}
			var header string
			for _, h := range p.Headers {
				if strings.EqualFold(h.Name, demo.VariantHeader) {
					header, _ = h.Value.Const()
				}
			}
			if header != run.Variant.String() {
				t.Errorf("%s header %q; want %q", demo.VariantHeader, header, run.Variant)
			}
			for _, f := range s.Fixes {
				if !hasEndpoint(p, f.Scenario, f.Endpoint) {
					t.Errorf("fix %q: no endpoint %q in scenario %q", f.Title, f.Endpoint, f.Scenario)
				}
			}
		})
	}
}

func hasEndpoint(p *plan.Plan, scenario, endpoint string) bool {
	for _, e := range p.Layout.Endpoints {
		if p.Layout.Scenarios[e.Scenario].Name == scenario && e.Name == endpoint {
			return true
		}
	}
	return false
}

// TestSessionTestsInStep keeps improved.yaml the naive test with another
// variant: only the leading comment, the name and the header may differ.
func TestSessionTestsInStep(t *testing.T) {
	s := demo.ScriptedSession()
	normal := func(r demo.SessionRun) string {
		src := string(r.Test(shopURL))
		src = regexp.MustCompile(`(?s)\A(#[^\n]*\n)+`).ReplaceAllString(src, "")
		src = strings.Replace(src, "name: "+r.Name, "name: NAME", 1)
		return strings.Replace(src, demo.VariantHeader+": "+r.Variant.String(), demo.VariantHeader+": VARIANT", 1)
	}
	naive, improved := normal(s.Runs[0]), normal(s.Runs[1])
	if naive != improved {
		t.Fatalf("the session's tests differ beyond name and variant:\n--- naive\n%s\n--- improved\n%s", naive, improved)
	}
}

func TestQuickTestParses(t *testing.T) {
	p, err := plan.Parse("quick.yaml", demo.QuickTest(shopURL), nil)
	if err != nil || p.BaseURL != shopURL {
		t.Fatalf("quick test: %v (base_url %q)", err, p.BaseURL)
	}
}
