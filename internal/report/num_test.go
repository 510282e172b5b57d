package report

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/loadlens/loadlens/internal/diagnose"
	"github.com/loadlens/loadlens/internal/web"
)

func TestUnknownFiguresNeverStopAPage(t *testing.T) {
	for _, v := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		f := diagnose.Finding{Kind: "generator", From: 3, To: 5,
			Figures:  []diagnose.Figure{{Value: v, What: "share of its cores agent 2 used (median)", Source: "loadlens_agent_cpu_share", From: 3, To: 5}},
			Evidence: []diagnose.Evidence{{Source: "loadlens_agent_cpu_share", Sec: 5, Value: v}}}
		page, err := web.ScriptJSON(NewDiagnosis([]diagnose.Finding{f}, nil))
		if err != nil {
			t.Fatalf("%v: the page's findings do not encode: %v", v, err)
		}
		own, err := json.Marshal(findingsJSON([]diagnose.Finding{f}))
		if err != nil {
			t.Fatalf("%v: the summary's findings do not encode: %v", v, err)
		}
		for _, b := range [][]byte{page, own} {
			if !strings.Contains(string(b), `"value":null`) {
				t.Fatalf("%v: the unknown value is not null: %s", v, b)
			}
		}
		if !strings.Contains(string(own), `"what":"share of its cores agent 2 used (median)"`) {
			t.Fatalf("a figure lost its fields on the way: %s", own)
		}
	}
}
