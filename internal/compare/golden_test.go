package compare

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"path/filepath"
	"testing"

	goldenfile "github.com/loadlens/loadlens/internal/golden"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// goldenReport compares a baseline with a rerun of the same server and a
// slower server run at a higher load.
func goldenReport(t *testing.T) *Report {
	t.Helper()
	a := synth{seed: 1, model: "arrival-rate", load: ramp(50, 5, 30, 3), errProb: 0.01}.input("before")
	b := synth{seed: 2, model: "arrival-rate", load: ramp(50, 5, 30, 3), errProb: 0.01}.input("after")
	c := synth{seed: 3, model: "arrival-rate", load: ramp(80, 5, 30, 3), slow: 1.3, errProb: 0.03}.input("slower <at> 80 req/s")
	r, err := Compare([]Input{a, b, c}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// goldenGroupsReport compares three runs of a server with three of one
// 30 % slower, the runs as replicates.
func goldenGroupsReport(t *testing.T) *Report {
	t.Helper()
	var a, b []Input
	for i := range uint64(3) {
		a = append(a, synth{seed: 10 + i, model: "arrival-rate", load: ramp(40, 3, 20, 2), runSlow: 0.03}.input(fmt.Sprintf("before-%d", i+1)))
		b = append(b, synth{seed: 20 + i, model: "arrival-rate", load: ramp(40, 3, 20, 2), runSlow: 0.03, slow: 1.3}.input(fmt.Sprintf("after-%d", i+1)))
	}
	r, err := CompareGroups([][]Input{a, b}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// goldenMarksReport compares a slow baseline with a faster and a slower
// run of the same server at the same load: changes a page marks better
// and worse.
func goldenMarksReport(t *testing.T) *Report {
	t.Helper()
	base := synth{seed: 1, model: "arrival-rate", load: hold100, slow: 1.3}.input("slow")
	fast := synth{seed: 2, model: "arrival-rate", load: hold100}.input("fast")
	slower := synth{seed: 3, model: "arrival-rate", load: hold100, slow: 1.7}.input("slower")
	r, err := Compare([]Input{base, fast, slower}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// goldenSessionsReport compares a chat service's run with one whose time
// to first message doubled and whose sessions a fifth ended UNAVAILABLE:
// the session lines of the WebSocket endpoint's row.
func goldenSessionsReport(t *testing.T) *Report {
	t.Helper()
	b := baseSessions(2)
	b.firstMs, b.unavailShr = 2*b.firstMs, 0.2
	r, err := Compare([]Input{baseSessions(1).input("before"), b.input("after")}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestGoldenOutputs keeps compare's output, the JSON of each golden
// comparison, and for one the seconds of its runs: report's tests read
// them back and render the text, Markdown and HTML pages from them.
func TestGoldenOutputs(t *testing.T) {
	tests := []struct {
		name    string
		report  func(*testing.T) *Report
		seconds bool // keep the runs' seconds too, for the page's charts
	}{
		{"compare", goldenReport, true},
		{"compare-groups", goldenGroupsReport, false},
		{"compare-marks", goldenMarksReport, false},
		{"compare-sessions", goldenSessionsReport, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := tc.report(t)
			var got bytes.Buffer
			if err := WriteJSON(&got, r); err != nil {
				t.Fatal(err)
			}
			golden(t, tc.name+".json", got.Bytes())
			if !tc.seconds {
				return
			}
			secs, err := json.Marshal(map[string]any{"seconds": r.Seconds, "loads": r.Loads})
			if err != nil {
				t.Fatal(err)
			}
			golden(t, tc.name+".seconds.json", append(secs, '\n'))
		})
	}
}

// TestJSONReadsBack checks that a comparison's JSON reads back into the
// same comparison, which is how a renderer can be fed one.
func TestJSONReadsBack(t *testing.T) {
	var first bytes.Buffer
	if err := WriteJSON(&first, goldenGroupsReport(t)); err != nil {
		t.Fatal(err)
	}
	var back Report
	if err := json.Unmarshal(first.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	var second bytes.Buffer
	if err := WriteJSON(&second, &back); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(first.Bytes(), second.Bytes()) {
		t.Errorf("the JSON read back writes differently:\n%s\nwas\n%s", second.String(), first.String())
	}
	if err := json.Unmarshal([]byte(`{"rows":[{"metrics":[{"metric":"p42"}]}]}`), &back); err == nil {
		t.Error("an unknown metric read back without an error")
	}
}

func golden(t *testing.T, file string, got []byte) {
	t.Helper()
	goldenfile.Check(t, filepath.Join("testdata", file), got, *update)
}
