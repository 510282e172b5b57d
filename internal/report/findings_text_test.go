package report

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loadlens/loadlens/internal/diagnose"
)

// TestFindingsTextGolden renders the diagnoses diagnose's own golden files
// hold (its data: findings and the healthy statement) as the terminal
// summary shows them.
func TestFindingsTextGolden(t *testing.T) {
	for _, name := range []string{"incident", "healthy"} {
		t.Run(name, func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join("..", "diagnose", "testdata", name+".json"))
			if err != nil {
				t.Fatal(err)
			}
			var d struct {
				Findings []diagnose.Finding
				Healthy  *diagnose.Verdict
			}
			if err := json.Unmarshal(raw, &d); err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := WriteFindings(&b, d.Findings); err != nil {
				t.Fatal(err)
			}
			if h := HealthyText(d.Healthy); h != "" {
				b.WriteString(h + "\n")
			}
			golden(t, "findings-"+name+".txt", b.Bytes())
		})
	}
}

func TestFindingsTextOfNothing(t *testing.T) {
	var b bytes.Buffer
	if err := WriteFindings(&b, nil); err != nil || b.Len() != 0 {
		t.Errorf("WriteFindings(nil) wrote %q, %v; want nothing", b.String(), err)
	}
	if got := HealthyText(nil); got != "" {
		t.Errorf("HealthyText(nil) = %q, want nothing", got)
	}
}

// TestBasis checks how the brackets after evidence say where a figure
// comes from, derived figures included.
func TestBasis(t *testing.T) {
	figs := []diagnose.Figure{
		{Value: 5, Unit: diagnose.UnitCount, Source: "http_req_failed", Stat: diagnose.StatSum, From: 0, To: 16},
		{Value: 1700, Unit: diagnose.UnitCount, Source: "http_reqs", Stat: diagnose.StatSum, From: 0, To: 16},
		{Value: 0.0029, Unit: diagnose.UnitFraction, Source: "http_req_failed", Stat: diagnose.StatRatio, Of: []int{0, 1}},
		{Value: 0.0367, Unit: diagnose.UnitDuration, Source: "http_req_duration", Stat: diagnose.StatQuantile, Q: 99.9, From: 12, To: 27},
		{Value: 10, Unit: diagnose.UnitCount, Source: "pool", Stat: diagnose.StatValue, From: 75, To: 75},
		{Value: 0.9, Unit: diagnose.UnitFraction, Source: "rule", Stat: diagnose.StatLimit},
	}
	for i, want := range []string{
		"sum of http_req_failed over 0:00–0:16 = 5",
		"sum of http_reqs over 0:00–0:16 = 1,700",
		"(sum of http_req_failed over 0:00–0:16) / (sum of http_reqs over 0:00–0:16) = 0.0029",
		"p99.9 of http_req_duration over 0:12–0:27 = 0.0367",
		"pool at 1:15 = 10",
		"rule threshold = 0.9",
	} {
		if got := Basis(figs, i); got != want {
			t.Errorf("Basis(%d) = %q, want %q", i, got, want)
		}
	}
	if got := evidenceBasis(figs, &diagnose.Evidence{Source: "by hand", Value: 12.345, Figure: -1}); !strings.HasPrefix(got, "by hand = 12.3") {
		t.Errorf("evidence without a figure: %q", got)
	}
}
