package cli

import (
	"strings"
	"testing"

	"github.com/loadlens/loadlens/internal/app"
)

// --html takes no value: a file after it is a second test name, and the
// error says where the file goes (a new user wrote `--html FILE` and read
// "history takes at most one test name").
func TestHistoryHTMLTakesNoFile(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"history", "shop", "--html", "out.html"}, "--html takes no file: write it with --out out.html"},
		{[]string{"history", "shop", "other"}, "history takes at most one test name\n"},
	} {
		code, stdout, stderr := main(append(tc.args, "--results", t.TempDir())...)
		if code != app.ExitBadInput || stdout != "" || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 saying %q", tc.args, code, stdout, stderr, tc.want)
		}
	}
}
