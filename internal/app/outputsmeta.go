package app

import (
	"encoding/json"

	"github.com/loadlens/loadlens/internal/report"
)

// outputsKey is the run.db meta key of what became of the metrics outputs'
// seconds, written at the run's end so that a rebuilt summary warns of an
// output that lost seconds as the run did.
const outputsKey = "outputs"

// encodeOutputs writes the outputs' results for run.db; "" when there were none.
func encodeOutputs(outs []report.OutputResult) string {
	if len(outs) == 0 {
		return ""
	}
	b, err := json.Marshal(outs)
	if err != nil {
		return "" // cannot happen: strings and integers only
	}
	return string(b)
}

// decodeOutputs reads the outputs' results back; nil when the run had none.
func decodeOutputs(enc string) ([]report.OutputResult, error) {
	if enc == "" {
		return nil, nil
	}
	var out []report.OutputResult
	if err := json.Unmarshal([]byte(enc), &out); err != nil {
		return nil, err
	}
	return out, nil
}
