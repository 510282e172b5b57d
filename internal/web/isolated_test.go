package web

import (
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestIsolatedPointsAreDrawn runs charts.js's points filter in node: a
// sample with no sample beside it (a run whose every request ended in its
// last second: the latency chart drew nothing) is drawn as a point; samples
// a line joins, and a series that shows its points anyway, add none.
func TestIsolatedPointsAreDrawn(t *testing.T) {
	node := needNode(t)
	for _, tc := range []struct {
		name, data string
		show       bool
		want       string
	}{
		{"the last second alone", "[null, null, null, 7.5]", false, "[3]"},
		{"a line and a lone point", "[1, 2, null, 4, null]", false, "[3]"},
		{"the first second alone", "[5, null]", false, "[0]"},
		{"a line", "[1, 2, 3]", false, "null"},
		{"points shown anyway", "[null, 4, null]", true, "null"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			show := "false"
			if tc.show {
				show = "true"
			}
			script := "var window = {};\n" + chartsJS + "\nvar LL = window.LL;\n" +
				"process.stdout.write(JSON.stringify(LL.isolatedPoints({data: [[], " + tc.data + "]}, 1, " + show + ")));"
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, node, "-")
			cmd.Stdin = strings.NewReader(script)
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("node: %v", err)
			}
			if string(out) != tc.want {
				t.Errorf("isolatedPoints(%s) = %s, want %s", tc.data, out, tc.want)
			}
		})
	}
}
