package report

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/units"
	"github.com/loadlens/loadlens/internal/web"
)

// TestReportScriptNamesTheUnitWhenNothingCompleted runs report.js in node
// with stubs for the DOM and the charts: a run with no completed sample
// says so in its own unit ("No call completed." for gRPC, "No session
// completed." for WebSocket), and a page whose meta names no unit (an
// earlier build's, HTTP) reads as before.
func TestReportScriptNamesTheUnitWhenNothingCompleted(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("LOADLENS_CI") == "1" {
			t.Fatal("node is not installed, and LOADLENS_CI=1 needs it")
		}
		t.Skip("node is not installed")
	}
	for _, tc := range []struct {
		name string
		unit units.Unit
		want string
	}{
		{"http", units.Unit{}, "No request completed."},
		{"grpc", units.Calls, "No call completed."},
		{"ws", units.Sessions, "No session completed."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data, err := json.Marshal(map[string]any{"meta": map[string]any{"unit": tc.unit}, "frames": []any{},
				"spectra": []any{}, "observed": nil, "diagnosis": map[string]any{"findings": []any{}}})
			if err != nil {
				t.Fatal(err)
			}
			script := domStub + "var window = {};\n" + web.Scripts()[1] + "\nvar LL = window.LL;\n" + chartStubs +
				"var DATA = " + string(data) + ";\n" + reportJS + "\nprocess.stdout.write(appended.join('|'));"
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, node, "-")
			cmd.Stdin = strings.NewReader(script)
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("node: %v\n%s", err, out)
			}
			if string(out) != tc.want {
				t.Errorf("the spectrum panel says %q, want %q", out, tc.want)
			}
		})
	}
}

// domStub is the document report.js reads: its data block, and a spectrum
// panel that records the text of what is appended to it.
const domStub = `var appended = [];
var performance = { now: function () { return 0; } };
var document = {
  createElement: function () { return {}; },
  getElementById: function (id) {
    if (id === "loadlens-data") return { textContent: JSON.stringify(DATA) };
    if (id === "spectrum") return { appendChild: function (e) { appended.push(e.textContent); } };
    return null;
  }
};
`

// chartStubs replace what draws (uPlot's panels, the server's charts).
const chartStubs = `LL.Store = function () { this.t = []; this.cpu = []; this.push = function () {}; };
LL.Observed = function () { this.cover = function () {}; this.add = function () {}; this.lastSec = function () { return 0; }; this.hasGenerator = function () { return false; }; };
LL.timePanels = function () { return []; };
LL.ObservedView = function () { this.sync = function () {}; };
LL.sortable = function () {};
`
